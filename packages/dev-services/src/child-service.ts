import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { waitFor } from './wait-for';

/** How a child service ended, and when. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When it exited, as `Date.now()`. */
  at: number;
  /** When it exited, as `performance.now()` in this process. */
  atMs: number;
}

/** What {@link ChildService.start} runs and how it tells that the service is ready. */
export interface ChildServiceOptions {
  /** The script `node` runs, e.g. the reference service's `dist/main.js`. */
  main: string;
  /** The complete environment of the process (nothing of this process's is inherited). */
  env: Record<string, string | undefined>;
  /** The port it listens on (`baseUrl` points there). */
  port: number;
  /** The `node` binary; default: the one running this process. */
  node?: string;
  /** Arguments for node before the script, e.g. `--expose-gc`. */
  nodeArgs?: readonly string[];
  /** The working directory; default: this process's. */
  cwd?: string;
  /** Keep only the last this many characters of output; default: all of it. */
  logLimit?: number;
  /** Gets each line the process prints on stdout. */
  onLine?: (line: string) => void;
  /** True once the service serves; default: `GET /health/ready` answers 200. */
  ready?: (service: ChildService) => Promise<boolean>;
  /** How long startup may take (default 60 s). */
  readyTimeoutMs?: number;
}

/**
 * An HTTP service in a child process on loopback (the built reference service for the e2e
 * suites and the benchmarks), receiving real OS signals. If this process exits first, the child
 * is killed with it, so no crash leaves a service running in the background.
 */
export class ChildService {
  readonly baseUrl: string;
  readonly exited: Promise<ChildExit>;
  private output = '';
  private readonly killOnExit = () => this.child.kill('SIGKILL');

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    private readonly logLimit: number | undefined,
    onLine: ((line: string) => void) | undefined,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
      if (this.logLimit !== undefined) this.output = this.output.slice(-this.logLimit);
    };
    if (onLine && child.stdout)
      createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', onLine);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', (error) => (this.output += `\nspawn error: ${String(error)}`));
    process.once('exit', this.killOnExit);
    this.exited = new Promise((resolveExit) =>
      child.once('exit', (code, signal) => {
        process.off('exit', this.killOnExit);
        resolveExit({ code, signal, at: Date.now(), atMs: performance.now() });
      }),
    );
  }

  /**
   * Starts the process and waits until `ready` says it serves. Fails at once if the process
   * exits during startup, or after `readyTimeoutMs`; either way the process is gone then.
   */
  static async start(options: ChildServiceOptions): Promise<ChildService> {
    const child = spawn(
      options.node ?? process.execPath,
      [...(options.nodeArgs ?? []), options.main],
      {
        cwd: options.cwd,
        env: options.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const service = new ChildService(child, options.port, options.logLimit, options.onLine);
    const ready =
      options.ready ??
      (async (s: ChildService) => (await fetch(`${s.baseUrl}/health/ready`)).status === 200);
    try {
      const state = await waitFor(
        async () => (service.alive ? (await ready(service)) && 'ready' : 'exited'),
        'the service to become ready',
        options.readyTimeoutMs ?? 60_000,
        50,
      );
      if (state === 'exited') throw new Error(`service exited during startup:\n${service.logs}`);
      return service;
    } catch (error) {
      await service.kill();
      throw error;
    }
  }

  /** What the process printed (all of it, or its tail with `logLimit`). */
  get logs(): string {
    return this.output;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The process id. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends a real OS signal; returns when it was sent (`performance.now()`). */
  signal(signal: NodeJS.Signals): number {
    const sentAt = performance.now();
    this.child.kill(signal);
    return sentAt;
  }

  /** The exit, or `undefined` if the process still runs after `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<ChildExit | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([this.exited, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the process at once if it still runs (SIGKILL) and waits for the exit. */
  async kill(): Promise<ChildExit> {
    if (this.alive) this.child.kill('SIGKILL');
    return this.exited;
  }
}
