import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { freePort } from 'dev-services';
import { getJson, type JsonResponse } from './http-json';
import { mainOf, THIS_BUILD, type ServiceBuild } from './service-build';
import { waitUntil, withDeadline } from './wait-until';

const LOG_TAIL_CHARS = 16_000;

/** How the process ended, and when (`performance.now()` in this process). */
export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  atMs: number;
}

/**
 * The built reference service (`dist/main.js`) in its own process with a fresh data
 * directory, so each measurement starts from an empty store and gets real OS signals.
 * `dispose()` must be called on every path: it kills the process if it still runs and
 * removes the data directory.
 */
export class SpawnedService {
  readonly baseUrl: string;
  readonly exited: Promise<ServiceExit>;
  /** Without keep-alive or a socket limit, so N concurrent streams get N connections. */
  readonly agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  private logTail = '';
  // A crash of this benchmark must not leave a service running in the background.
  private readonly killOnExit = () => this.child.kill('SIGKILL');

  private constructor(
    private readonly child: ChildProcess,
    readonly dataDir: string,
    readonly port: number,
    onLine?: (line: string) => void,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    const keep = (chunk: Buffer) => (this.logTail = (this.logTail + chunk.toString()).slice(-LOG_TAIL_CHARS));
    if (onLine && child.stdout) createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', onLine);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', (error) => (this.logTail += `\nspawn error: ${String(error)}`));
    this.exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal, atMs: performance.now() })));
    process.once('exit', this.killOnExit);
  }

  /**
   * Starts the service with `env` on top of a minimal environment and waits until it is ready.
   * `onLine` gets each line the service prints on stdout (its JSON log); `nodeArgs` go to node
   * before the script (e.g. `--expose-gc`); `build` is the release started, by default this
   * checkout's `dist/main.js` on this process's Node.
   */
  static async start(
    env: Record<string, string>,
    readyTimeoutMs = 60_000,
    onLine?: (line: string) => void,
    nodeArgs: readonly string[] = [],
    build: ServiceBuild = THIS_BUILD,
  ): Promise<SpawnedService> {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-bench-'));
    let service: SpawnedService | undefined;
    try {
      const port = await freePort();
      const child = spawn(build.node, [...nodeArgs, mainOf(build)], {
        cwd: build.dir,
        env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      service = new SpawnedService(child, dataDir, port, onLine);
      const ready = service;
      const up = await waitUntil(
        async () => {
          if (!ready.alive) return false;
          return (await ready.readiness()).status === 200 ? true : undefined;
        },
        'the service to become ready',
        readyTimeoutMs,
        50,
      );
      if (!up) throw new Error(`service exited during startup:\n${service.logs}`);
      return service;
    } catch (error) {
      if (service) await service.dispose();
      else rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** The SQLite file of the embedded store. */
  get databaseFile(): string {
    return join(this.dataDir, 'agents.sqlite');
  }

  /** The process id: the service records runs under `<hostname>-<pid>` (its default instance id). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines the process printed, for error messages. */
  get logs(): string {
    return this.logTail;
  }

  /** `GET /health/ready`: 200 while serving, 503 from the start of a shutdown; the body has the details. */
  readiness(): Promise<JsonResponse> {
    return getJson(`${this.baseUrl}/health/ready`, this.agent);
  }

  /** Sends a real OS signal; returns when it was sent (`performance.now()`). */
  signal(signal: NodeJS.Signals): number {
    const sentAt = performance.now();
    this.child.kill(signal);
    return sentAt;
  }

  /** The exit, or `undefined` if the process still runs after `timeoutMs`. */
  waitForExit(timeoutMs: number): Promise<ServiceExit | undefined> {
    return withDeadline(this.exited, timeoutMs, undefined);
  }

  /** Ends the process at once if it still runs (SIGKILL) and waits for the exit. */
  async kill(): Promise<ServiceExit> {
    if (this.alive) this.child.kill('SIGKILL');
    return this.exited;
  }

  /** Kills the process if it still runs, closes client sockets and removes the data directory. */
  async dispose(): Promise<void> {
    await this.kill();
    process.off('exit', this.killOnExit);
    this.agent.destroy();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
