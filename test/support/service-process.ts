import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, waitFor } from 'dev-services';
import { TEST_SECRET } from './http';
import { storeEnvironment } from './store-backend';

const MAIN = resolve(__dirname, '../../dist/main.js');

/** A fresh data directory for the embedded store. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'agent-svc-'));
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When the process exited, as `Date.now()`. */
  at: number;
}

/**
 * The built reference service (`dist/main.js`) in a child process, on its own port,
 * receiving real OS signals.
 */
export class ServiceProcess {
  readonly baseUrl: string;
  readonly exited: Promise<ExitStatus>;
  private output = '';

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
    /** The environment given on top of the defaults. */
    readonly env: Record<string, string>,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal, at: Date.now() })));
  }

  /**
   * Starts the service and waits until `/health/ready` answers 200. A new service (no data
   * directory or database given) gets a fresh store of the suite's kind (see `store-backend.ts`).
   * `port` (default: a free one) restarts a service where its clients, e.g. an open page, expect it.
   */
  static async start(options: { env?: Record<string, string>; dataDir?: string; port?: number } = {}): Promise<ServiceProcess> {
    const port = options.port ?? (await freePort());
    const fresh = !options.dataDir && !options.env?.DATABASE_URL;
    const env = fresh ? { ...(await storeEnvironment()), ...options.env } : (options.env ?? {});
    const dataDir = options.dataDir ?? tempDataDir();
    const child = spawn(process.execPath, [MAIN], {
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
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child, port, dataDir, env);
    let exitedEarly = false;
    void service.exited.then(() => (exitedEarly = true));
    await waitFor(
      async () => {
        if (exitedEarly) throw new Error(`service exited during startup:\n${service.logs}`);
        const response = await fetch(`${service.baseUrl}/health/ready`);
        return response.status === 200;
      },
      'the service to become ready',
      60_000,
      50,
    );
    return service;
  }

  /** Everything the process printed. */
  get logs(): string {
    return this.output;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends a real OS signal to the process. */
  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Waits for the exit, failing after `timeoutMs`. */
  async waitForExit(timeoutMs = 30_000): Promise<ExitStatus> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`service did not exit within ${timeoutMs} ms:\n${this.logs}`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the process if it still runs (test clean-up). */
  async stop(): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
