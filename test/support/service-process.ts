import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ChildService, freePort, type ChildExit } from 'dev-services';
import { TEST_SECRET } from './http';
import { storeEnvironment } from './store-backend';

const MAIN = resolve(__dirname, '../../dist/main.js');

/** A fresh data directory for the embedded store. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'agent-svc-'));
}

/** How the service ended: its code or signal, and when (`at`, as `Date.now()`). */
export type ExitStatus = ChildExit;

/**
 * The built reference service (`dist/main.js`) in a child process, on its own port,
 * receiving real OS signals.
 */
export class ServiceProcess {
  readonly baseUrl: string;
  readonly exited: Promise<ExitStatus>;

  private constructor(
    private readonly child: ChildService,
    readonly dataDir: string,
    /** The environment given on top of the defaults. */
    readonly env: Record<string, string>,
  ) {
    this.baseUrl = child.baseUrl;
    this.exited = child.exited;
  }

  /**
   * Starts the service and waits until `/health/ready` answers 200. A new service (no data
   * directory or database given) gets a fresh store of the suite's kind (see `store-backend.ts`).
   * `port` (default: a free one) restarts a service where its clients, e.g. an open page, expect it.
   * `launcher` runs the service through another program, which is given its `args`, then node's
   * path and the script's (e.g. `unshare` to run it in a mount namespace of its own).
   */
  static async start(
    options: {
      env?: Record<string, string>;
      dataDir?: string;
      port?: number;
      launcher?: { program: string; args: readonly string[] };
    } = {},
  ): Promise<ServiceProcess> {
    const port = options.port ?? (await freePort());
    const fresh = !options.dataDir && !options.env?.DATABASE_URL;
    const env = fresh ? { ...(await storeEnvironment()), ...options.env } : (options.env ?? {});
    const dataDir = options.dataDir ?? tempDataDir();
    const child = await ChildService.start({
      ...(options.launcher && {
        node: options.launcher.program,
        nodeArgs: [...options.launcher.args, process.execPath],
      }),
      main: MAIN,
      port,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: String(port),
        DATA_DIR: dataDir,
        AUTH_JWT_SECRET: TEST_SECRET,
        DEMO_REASONING_MS: '100',
        DEMO_TOOL_MS: '100',
        ...env,
      },
    });
    return new ServiceProcess(child, dataDir, env);
  }

  get port(): number {
    return this.child.port;
  }

  /** Everything the process printed. */
  get logs(): string {
    return this.child.logs;
  }

  get alive(): boolean {
    return this.child.alive;
  }

  /** Sends a real OS signal to the process. */
  kill(signal: NodeJS.Signals): void {
    this.child.signal(signal);
  }

  /** Waits for the exit, failing after `timeoutMs`. */
  async waitForExit(timeoutMs = 30_000): Promise<ExitStatus> {
    const exit = await this.child.waitForExit(timeoutMs);
    if (!exit) throw new Error(`service did not exit within ${timeoutMs} ms:\n${this.logs}`);
    return exit;
  }

  /** Ends the process if it still runs (test clean-up). */
  async stop(): Promise<void> {
    await this.child.kill();
  }
}
