import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from 'dev-services';
import { waitUntil, withDeadline } from '../bench/wait-until';
import { LEDGER_PRELOAD } from './module-ledger-run';

/** How a process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A consumer app in a child process (`node dist/main.js`), receiving real signals. */
export class ConsumerProcess {
  readonly baseUrl: string;
  readonly exited: Promise<ProcessExit>;
  private output = '';

  private constructor(
    readonly child: ChildProcess,
    port: number,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    // `close`, not `exit`: by then everything the app wrote has been read.
    this.exited = new Promise((done) =>
      child.once('close', (code, signal) => done({ code, signal })),
    );
  }

  /**
   * Starts the app in `dir` with `node` (a binary path) and waits until its `/ready` answers 200.
   * The app's module ledger preload (`module-ledger.cjs`) records what it loads to
   * `env.MODULE_LEDGER_FILE`, when set.
   */
  static async start(
    dir: string,
    env: Record<string, string>,
    node: string,
  ): Promise<ConsumerProcess> {
    const port = await freePort();
    const child = spawn(node, [...LEDGER_PRELOAD, 'dist/main.js'], {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const app = new ConsumerProcess(child, port);
    await waitUntil(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`consumer app exited during startup:\n${app.logs}`);
        return (await fetch(`${app.baseUrl}/ready`).catch(() => null))?.status === 200
          ? true
          : undefined;
      },
      'the consumer app to answer',
      60_000,
    ).catch((error: Error) => {
      child.kill('SIGKILL');
      throw new Error(`${error.message}\n${app.logs}`);
    });
    return app;
  }

  /** Everything the app wrote to stdout and stderr so far. */
  get logs(): string {
    return this.output;
  }

  /** Tool executions the app logged (its execution ledger), by tool-call id. */
  executions(): string[] {
    return [...this.output.matchAll(/"msg":"count executed","n":\d+,"toolCallId":"([^"]+)"/g)].map(
      (match) => match[1],
    );
  }

  /** Resolves once the app's output matches `pattern`; fails after `timeoutMs`. */
  waitForLog(pattern: RegExp, timeoutMs: number): Promise<true> {
    return waitUntil(
      async () => pattern.test(this.output) || undefined,
      `the app to log ${pattern}`,
      timeoutMs,
      25,
    );
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** How the app exited; throws with its logs when it has not within `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<ProcessExit> {
    const exit = await withDeadline(this.exited, timeoutMs, undefined);
    if (!exit) throw new Error(`consumer app did not exit within ${timeoutMs} ms:\n${this.logs}`);
    return exit;
  }

  /** Kills the app if it still runs: clean-up after a failed proof. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
