import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisServerBinary } from './debian-packages';
import { freePort } from './free-port';

/** How long a spawned redis-server may take to answer, in ms. */
const READY_TIMEOUT_MS = 15_000;

/** How long `stop()` waits after SIGTERM before SIGKILL, and again after SIGKILL, in ms. */
const STOP_TIMEOUT_MS = 10_000;

/** How long one readiness probe may take, in ms. */
const PROBE_TIMEOUT_MS = 500;

/** Output kept for error messages, in characters (the tail). */
const OUTPUT_KEPT = 8_192;

/** Picking a free port and binding it are not atomic; a lost race is retried with a new port. */
const PORT_ATTEMPTS = 3;

export interface RedisServerOptions {
  /** TCP port on 127.0.0.1. Default: a free one, picked by the kernel. */
  port?: number;
  /** More `redis-server` arguments, after the defaults (e.g. `--cluster-enabled yes`). */
  args?: readonly string[];
}

/** Children still running, killed if the node process exits without stopping them. */
const live = new Set<ChildProcess>();

function killAllOnExit(): void {
  for (const child of live) child.kill('SIGKILL');
}

/**
 * True when the redis on 127.0.0.1:`port` answers within {@link PROBE_TIMEOUT_MS} and is process
 * `pid`: a PONG alone could come from another server that won the port while ours failed to bind.
 */
function isServing(port: number, pid: number | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    let reply = '';
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.startsWith('-')) return done(false); // e.g. -LOADING: up, but not serving yet
      const found = /\r\nprocess_id:(\d+)\r\n/.exec(reply);
      if (found) done(Number(found[1]) === pid);
    });
  });
}

/** Resolves with true when `exited` settles within `timeoutMs`, false otherwise; the timer is always cleared. */
async function exitsWithin(exited: Promise<void>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>(
    (resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)),
  );
  try {
    return await Promise.race([exited.then(() => true as const), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A real `redis-server` for tests and benchmarks, in a child process on 127.0.0.1 only, with
 * no persistence (`--save ""`, no AOF) and no password. Needs the binary (see
 * `ensureLocalServicePackages`). Call `destroy()` when done; a server left running is killed
 * when the node process exits normally, and it never keeps the process alive by itself.
 */
export class RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  private constructor(
    /** TCP port on 127.0.0.1; kept across `stop()`/`startAgain()`. */
    readonly port: number,
    private readonly binary: string,
    private readonly args: readonly string[],
  ) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  /** Spawns a redis-server and resolves once it answers as itself. */
  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const binary = redisServerBinary();
    for (let attempt = 1; ; attempt++) {
      const server = new RedisServer(
        options.port ?? (await freePort()),
        binary,
        options.args ?? [],
      );
      try {
        await server.startAgain();
        return server;
      } catch (error) {
        const portTaken = /Address already in use/i.test(server.output);
        if (options.port !== undefined || !portTaken || attempt >= PORT_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Starts the stopped server again on the same port, empty (nothing is persisted); resolves
   * once it answers as itself.
   */
  async startAgain(): Promise<void> {
    if (this.child)
      throw new Error(`redis-server on port ${this.port} is already running: stop() it first.`);
    const child = spawn(
      this.binary,
      [
        ...['--port', String(this.port), '--bind', '127.0.0.1'],
        // Throwaway data: no snapshots, no AOF, so nothing lands in the cwd.
        ...['--save', '', '--appendonly', 'no'],
        ...['--protected-mode', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
        ...this.args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.output = '';
    const keep = (chunk: Buffer) =>
      (this.output = (this.output + chunk.toString()).slice(-OUTPUT_KEPT));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    let exitedEarly: string | undefined;
    // 'error' without 'exit' is how a failed spawn (e.g. ENOENT) ends.
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) =>
        resolve(void (exitedEarly = `code ${code}, signal ${signal}`)),
      );
      child.once('error', (error) => resolve(void (exitedEarly = error.message)));
    });
    // The server must not hold the process open; the exit handler below kills it instead.
    child.unref();
    for (const stream of [child.stdout, child.stderr]) (stream as Socket | null)?.unref();
    this.child = child;
    this.track(child);

    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await isServing(this.port, child.pid))) {
      if (exitedEarly !== undefined) {
        this.forget(child);
        throw new Error(
          `redis-server exited during startup on port ${this.port} (${exitedEarly}). Its output:\n${this.output}`,
        );
      }
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error(
          `redis-server did not answer on 127.0.0.1:${this.port} within ${READY_TIMEOUT_MS} ms. Its output:\n${this.output}`,
        );
      }
      await sleep(25);
    }
  }

  /**
   * Sends `signal` (SIGTERM, or SIGKILL for a crash) and waits for the exit; SIGKILL after
   * {@link STOP_TIMEOUT_MS}. Does nothing when stopped.
   */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill(signal);
    if (!(await exitsWithin(this.exited, STOP_TIMEOUT_MS))) {
      child.kill('SIGKILL');
      if (!(await exitsWithin(this.exited, STOP_TIMEOUT_MS))) {
        throw new Error(
          `redis-server (pid ${child.pid}) survived SIGKILL for ${STOP_TIMEOUT_MS} ms: check the machine (\`ps -p ${child.pid}\`).`,
        );
      }
    }
    this.forget(child);
  }

  /** Whether the server process is running (started and not stopped). */
  get running(): boolean {
    return this.child !== undefined;
  }

  /** Stops the server if running. Nothing is on disk, so there is nothing else to clean. */
  async destroy(): Promise<void> {
    await this.stop();
  }

  private track(child: ChildProcess): void {
    if (live.size === 0) process.once('exit', killAllOnExit);
    live.add(child);
  }

  private forget(child: ChildProcess): void {
    this.child = undefined;
    live.delete(child);
    if (live.size === 0) process.removeListener('exit', killAllOnExit);
  }
}
