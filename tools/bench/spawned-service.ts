import { rmSync, mkdtempSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildService, freePort, type ChildExit } from 'dev-services';
import { getJson, type JsonResponse } from './http-json';
import { mainOf, THIS_BUILD, type ServiceBuild } from './service-build';

const LOG_TAIL_CHARS = 16_000;

/** How the process ended, and when (`atMs`: `performance.now()` in this process). */
export type ServiceExit = ChildExit;

/**
 * The built reference service (`dist/main.js`) in its own process with a fresh data
 * directory, so each measurement starts from an empty store and gets real OS signals.
 * `dispose()` must be called on every path: it kills the process if it still runs and
 * removes the data directory.
 */
export class SpawnedService {
  readonly baseUrl: string;
  readonly exited: Promise<ServiceExit>;

  private constructor(
    private readonly child: ChildService,
    readonly dataDir: string,
    /** Without keep-alive or a socket limit, so N concurrent streams get N connections. */
    readonly agent: Agent,
  ) {
    this.baseUrl = child.baseUrl;
    this.exited = child.exited;
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
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    try {
      const port = await freePort();
      const child = await ChildService.start({
        main: mainOf(build),
        node: build.node,
        nodeArgs,
        cwd: build.dir,
        port,
        env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir, ...env },
        logLimit: LOG_TAIL_CHARS,
        onLine,
        ready: async (service) =>
          (await getJson(`${service.baseUrl}/health/ready`, agent)).status === 200,
        readyTimeoutMs,
      });
      return new SpawnedService(child, dataDir, agent);
    } catch (error) {
      agent.destroy();
      rmSync(dataDir, { recursive: true, force: true });
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

  get port(): number {
    return this.child.port;
  }

  get alive(): boolean {
    return this.child.alive;
  }

  /** The last lines the process printed, for error messages. */
  get logs(): string {
    return this.child.logs;
  }

  /** `GET /health/ready`: 200 while serving, 503 from the start of a shutdown; the body has the details. */
  readiness(): Promise<JsonResponse> {
    return getJson(`${this.baseUrl}/health/ready`, this.agent);
  }

  /** Sends a real OS signal; returns when it was sent (`performance.now()`). */
  signal(signal: NodeJS.Signals): number {
    return this.child.signal(signal);
  }

  /** The exit, or `undefined` if the process still runs after `timeoutMs`. */
  waitForExit(timeoutMs: number): Promise<ServiceExit | undefined> {
    return this.child.waitForExit(timeoutMs);
  }

  /** Ends the process at once if it still runs (SIGKILL) and waits for the exit. */
  kill(): Promise<ServiceExit> {
    return this.child.kill();
  }

  /** Kills the process if it still runs, closes client sockets and removes the data directory. */
  async dispose(): Promise<void> {
    await this.kill();
    this.agent.destroy();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
