import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChildService, freePort } from 'dev-services';
import { mainOf, THIS_BUILD } from '../bench/service-build';
import { ExecutionLedger } from '../rolling/execution-ledger';
import { InstanceLogFiles } from '../rolling/instance-log-files';
import { majorGcOf } from './major-gc-line';

/** How long one life may take to boot and become ready, in ms. */
const READY_TIMEOUT_MS = 90_000;
/** Kept of each life's output, for error messages. */
const LOG_TAIL_CHARS = 16_000;

/** The heap after one full collection of a serving life (`--trace-gc`). */
export interface MajorGcPoint {
  /** `performance.now()` when the line was read. */
  atMs: number;
  life: number;
  /** Heap used after the collection, in MB. */
  afterMb: number;
}

/** One SIGTERM-and-restart: when it began, how the old life ended, when the new one served. */
export interface SoakRestart {
  /** The life stopped (1, 2, …). */
  life: number;
  /** `performance.now()` when SIGTERM was sent, and when the next life was ready. */
  signalledAtMs: number;
  readyAtMs: number;
  exitCode: number | null;
  /** SIGTERM to exit, in ms; undefined when it did not exit within the shutdown deadline. */
  exitMs?: number;
}

/**
 * The one instance of the soak: the built reference service (`dist/main.js`) in a child
 * process on a fixed port, so its clients keep one URL across restarts. `restart()` sends a real
 * SIGTERM, waits for the exit (bounded by the service's own hard deadline and a margin), then
 * starts the next life. Every life's stdout feeds the execution ledger and `<logDir>/life-<n>.log`.
 * Each life runs with `--trace-gc` (a V8 flag; nothing in the service changes): the heap after
 * each full collection is kept in `majorGcs`, the other collection lines are dropped.
 * Whatever a life did wrong on its way out (not exiting, an exit code other than 0) is kept in
 * `problems`.
 */
export class SoakInstance {
  readonly ledger = new ExecutionLedger();
  readonly restarts: SoakRestart[] = [];
  readonly problems: string[] = [];
  /** Every full collection of a serving life, in order. */
  readonly majorGcs: MajorGcPoint[] = [];
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'agent-soak-'));
  private readonly logFiles: InstanceLogFiles;
  private current?: ChildService;
  private lifeNumber = 0;
  private signalled = false;

  private constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    /** The service's `SHUTDOWN_TIMEOUT_MS`: a life still running this long after its SIGTERM has failed to stop. */
    private readonly shutdownTimeoutMs: number,
    logDir: string,
    log: (line: string) => void,
  ) {
    this.logFiles = new InstanceLogFiles(logDir, log);
  }

  /** Starts the first life with `env` (on top of `PATH`, `PORT` and `DATA_DIR`) and resolves once it is ready. */
  static async start(
    env: Record<string, string>,
    shutdownTimeoutMs: number,
    logDir: string,
    log: (line: string) => void,
  ): Promise<SoakInstance> {
    const instance = new SoakInstance(await freePort(), env, shutdownTimeoutMs, logDir, log);
    try {
      await instance.startLife();
      return instance;
    } catch (error) {
      await instance.dispose();
      throw error;
    }
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The life running now (1, 2, …). */
  get life(): number {
    return this.lifeNumber;
  }

  /** The process id of the life serving now; undefined between lives and from its SIGTERM on (its drain is no steady state). */
  get pid(): number | undefined {
    return this.current?.alive && !this.signalled ? this.current.pid : undefined;
  }

  /** SIGTERM to the running life, its exit awaited, and the next life started and ready. */
  async restart(): Promise<SoakRestart> {
    const service = this.current;
    if (!service) throw new Error('the soak instance is not running');
    const life = this.lifeNumber;
    this.signalled = true;
    const signalledAtMs = service.signal('SIGTERM');
    const exit = await service.waitForExit(this.shutdownTimeoutMs + 5_000);
    if (!exit) {
      this.problems.push(
        `life ${life} did not exit within ${this.shutdownTimeoutMs + 5_000} ms of its SIGTERM`,
      );
      await service.kill();
    } else if (exit.code !== 0) {
      this.problems.push(
        `life ${life} exited with code ${exit.code} (signal ${exit.signal}) after its SIGTERM`,
      );
    }
    this.current = undefined;
    await this.startLife();
    const restart: SoakRestart = {
      life,
      signalledAtMs,
      readyAtMs: performance.now(),
      exitCode: exit?.code ?? null,
      ...(exit ? { exitMs: exit.atMs - signalledAtMs } : {}),
    };
    this.restarts.push(restart);
    return restart;
  }

  /** The last life's SIGTERM and exit, as in {@link restart}, without a next life; resolves with the exit code. */
  async stop(): Promise<number | null> {
    const service = this.current;
    if (!service) return null;
    this.signalled = true;
    service.signal('SIGTERM');
    const exit = await service.waitForExit(this.shutdownTimeoutMs + 5_000);
    if (!exit)
      this.problems.push(
        `life ${this.lifeNumber} did not exit within ${this.shutdownTimeoutMs + 5_000} ms of its SIGTERM`,
      );
    else if (exit.code !== 0)
      this.problems.push(
        `life ${this.lifeNumber} exited with code ${exit.code} (signal ${exit.signal}) after its SIGTERM`,
      );
    this.current = undefined;
    return exit?.code ?? null;
  }

  /** Kills a life still running, flushes the log files and removes the data directory; on every path. */
  async dispose(): Promise<void> {
    await this.current?.kill();
    this.current = undefined;
    await this.logFiles.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async startLife(): Promise<void> {
    const name = `life-${++this.lifeNumber}`;
    this.signalled = false;
    const life = this.lifeNumber;
    const readers = [this.ledger.reader(name), this.logFiles.open(name)];
    const onLine = (line: string) => {
      // `--trace-gc` lines: `[pid:isolate]  123 ms: Scavenge …` or `… Mark-Compact …`.
      if (line.startsWith('[') && line.includes(' ms: ')) {
        const gc = majorGcOf(line);
        if (gc && !this.signalled)
          this.majorGcs.push({ atMs: performance.now(), life, afterMb: gc.afterMb });
        return;
      }
      for (const read of readers) read?.(line);
    };
    this.current = await ChildService.start({
      main: mainOf(THIS_BUILD),
      node: THIS_BUILD.node,
      nodeArgs: ['--trace-gc'],
      cwd: THIS_BUILD.dir,
      port: this.port,
      env: { PATH: process.env.PATH, PORT: String(this.port), DATA_DIR: this.dataDir, ...this.env },
      logLimit: LOG_TAIL_CHARS,
      onLine,
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
  }
}
