import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { postgresBinDir } from './debian-packages';
import { freePort } from './free-port';

const execFileAsync = promisify(execFile);

/** How long `pg_ctl` may wait for a start or stop, in seconds. */
const PG_CTL_WAIT_S = 60;

/** How long a started server may take to accept a real client, in ms (after `pg_ctl -w`). */
const READY_TIMEOUT_MS = 30_000;

/** Picking a free port and binding it are not atomic; a lost race is retried with a new port. */
const PORT_ATTEMPTS = 3;

export interface PostgresServerOptions {
  /** TCP port on 127.0.0.1. Default: a free one, picked by the kernel. */
  port?: number;
}

/** PostgreSQL refuses to run as root, so root hands every server command to this OS user. */
const SERVER_USER = 'postgres';

const isRoot = () => process.getuid?.() === 0;

function serverUserIds(): { uid: number; gid: number } {
  try {
    const id = (flag: string) =>
      Number(
        execFileSync('id', [flag, SERVER_USER], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }),
      );
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      `OS user "${SERVER_USER}" not found: install the Debian package \`postgresql\`, which creates it.`,
    );
  }
}

/** argv for running a server binary as the right user: via `runuser` when we are root. */
function asServerUser(binary: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', SERVER_USER, '--', binary, ...args]] : [binary, args];
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Servers still running, stopped hard if the node process exits without destroying them. */
const live = new Set<PostgresServer>();

function stopAllOnExit(): void {
  for (const server of live) server.destroySync();
}

/**
 * A real PostgreSQL server for tests and benchmarks: its own cluster in a temp dir, listening
 * on 127.0.0.1 only, user `postgres` with trust auth (no password), no fsync (commits survive
 * a killed server, including `stop('immediate')`, but not a killed machine). Needs the server
 * binaries (see `ensureLocalServicePackages`). Call `destroy()` when done; a server left
 * running is stopped when the node process exits normally.
 */
export class PostgresServer {
  private running = false;

  private constructor(
    /** TCP port on 127.0.0.1; kept across `stop()`/`startAgain()`. */
    readonly port: number,
    /** The temp dir holding the cluster (`data/`), its log (`postgres.log`) and its unix socket. */
    readonly dir: string,
    private readonly binDir: string,
  ) {}

  /** Creates a cluster in a fresh temp dir and starts it; resolves once a client can run `SELECT 1`. */
  static async start(options: PostgresServerOptions = {}): Promise<PostgresServer> {
    const binDir = postgresBinDir();
    const dir = mkdtempSync(join(tmpdir(), 'pg-local-'));
    try {
      if (isRoot()) {
        const { uid, gid } = serverUserIds();
        chownSync(dir, uid, gid);
      }
      await run(
        binDir,
        'initdb',
        ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'],
        dir,
      );
      writeSettings(dir);
      for (let attempt = 1; ; attempt++) {
        const port = options.port ?? (await freePort());
        // Later lines win in postgresql.conf, so a retry just appends the new port.
        appendFileSync(join(dir, 'data', 'postgresql.conf'), `port = ${port}\n`);
        const server = new PostgresServer(port, dir, binDir);
        try {
          await server.startAgain();
          return server;
        } catch (error) {
          const portTaken = /could not bind|Address already in use/i.test(server.logTail());
          if (options.port !== undefined || !portTaken || attempt >= PORT_ATTEMPTS) throw error;
        }
      }
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** A connection URL for `database` (default `postgres`): `postgres://postgres@127.0.0.1:<port>/<database>`. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${encodeURIComponent(database)}`;
  }

  /** Creates database `name` (any characters; it is quoted) and returns its URL. */
  async createDatabase(name: string): Promise<string> {
    const client = new Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /**
   * Stops the server and waits until it is down. `fast` (default) rolls back open transactions
   * and disconnects clients; `immediate` aborts like a crash, leaving recovery to the next start.
   * Does nothing when already stopped.
   */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    if (!this.running) return;
    await run(
      this.binDir,
      'pg_ctl',
      ['stop', '-D', this.dataDir, '-m', mode, '-w', '-t', String(PG_CTL_WAIT_S)],
      this.dir,
    );
    this.running = false;
    this.untrack();
  }

  /** Starts the stopped server again on the same port and data; resolves once a client can run `SELECT 1`. */
  async startAgain(): Promise<void> {
    if (this.running)
      throw new Error(`PostgreSQL on port ${this.port} is already running: stop() it first.`);
    try {
      await run(
        this.binDir,
        'pg_ctl',
        ['start', '-D', this.dataDir, '-l', this.logPath, '-w', '-t', String(PG_CTL_WAIT_S)],
        this.dir,
      );
      this.running = true;
      this.track();
      await this.untilReady();
    } catch (error) {
      // Leave it stopped, not half-started (pg_ctl may time out with a postmaster still coming up).
      await this.stopHard();
      throw new Error(
        `PostgreSQL did not start on 127.0.0.1:${this.port}: ${messageOf(error)}\n--- postgres.log (tail) ---\n${this.logTail()}`,
      );
    }
  }

  /** `stop(mode)` then `startAgain()`: same port, same data. */
  async restart(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.stop(mode);
    await this.startAgain();
  }

  /** Stops the server if running (errors ignored: the data is going anyway) and deletes its temp dir. */
  async destroy(): Promise<void> {
    if (this.running) await this.stopHard();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * `destroy()`, synchronously: for a process `exit` handler, where nothing async runs any more.
   * Servers left running already get this when the process exits normally.
   */
  destroySync(): void {
    try {
      const [file, args] = asServerUser(join(this.binDir, 'pg_ctl'), [
        'stop',
        '-D',
        this.dataDir,
        '-m',
        'immediate',
        '-w',
        '-t',
        '10',
      ]);
      execFileSync(file, args, { cwd: this.dir, stdio: 'ignore' });
    } catch {
      // Already down, or going: either way nothing more can be done while exiting.
    }
    this.running = false;
    this.untrack();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The last `lines` lines of the server log, for error messages. */
  logTail(lines = 40): string {
    if (!existsSync(this.logPath)) return '(no log yet)';
    return readFileSync(this.logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  private get logPath(): string {
    return join(this.dir, 'postgres.log');
  }

  /** `pg_ctl -w` only sees the postmaster accept connections; this proves a query runs over TCP. */
  private async untilReady(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(
            `no client could run SELECT 1 within ${READY_TIMEOUT_MS} ms: ${messageOf(error)}`,
          );
      } finally {
        await client.end().catch(() => undefined);
      }
      await sleep(25);
    }
  }

  /** `stop('immediate')` that never throws: used where the server may be half up or already gone. */
  private async stopHard(): Promise<void> {
    await run(
      this.binDir,
      'pg_ctl',
      ['stop', '-D', this.dataDir, '-m', 'immediate', '-w', '-t', String(PG_CTL_WAIT_S)],
      this.dir,
    ).catch(() => undefined);
    this.running = false;
    this.untrack();
  }

  private track(): void {
    if (live.size === 0) process.once('exit', stopAllOnExit);
    live.add(this);
  }

  private untrack(): void {
    live.delete(this);
    if (live.size === 0) process.removeListener('exit', stopAllOnExit);
  }
}

/** The settings that make a throwaway server fast and private to this machine. */
function writeSettings(dir: string): void {
  const socketDir = dir.replace(/'/g, "''");
  appendFileSync(
    join(dir, 'data', 'postgresql.conf'),
    [
      '',
      '# local-services: a throwaway test server',
      "listen_addresses = '127.0.0.1'",
      // Our own dir: the default /var/run/postgresql may be missing or not ours.
      `unix_socket_directories = '${socketDir}'`,
      // Survives a killed server, not a killed machine: all a test needs, without fsync's cost.
      'fsync = off',
      'full_page_writes = off',
      // Stays on: off lets an immediate stop (a crash) lose commits that were acknowledged,
      // which production does not do and crash-recovery tests would then trip over.
      'synchronous_commit = on',
      'max_connections = 200',
      'shared_buffers = 64MB',
      '',
    ].join('\n'),
  );
}

async function run(binDir: string, name: string, args: string[], cwd: string): Promise<void> {
  const [file, argv] = asServerUser(join(binDir, name), args);
  try {
    // cwd: the server user may not be allowed into ours (e.g. /root), and pg_ctl complains.
    await execFileAsync(file, argv, { cwd, timeout: (PG_CTL_WAIT_S + 30) * 1_000 });
  } catch (error) {
    const stderr = ((error as { stderr?: string }).stderr ?? '').trim();
    const hint =
      isRoot() && /Permission denied/i.test(stderr)
        ? `\nThe "${SERVER_USER}" user must be able to reach ${cwd}: point TMPDIR at a directory it can traverse (e.g. /tmp).`
        : '';
    const command = args[0]?.startsWith('-') ? name : `${name} ${args[0]}`;
    throw new Error(`${command} failed: ${stderr || messageOf(error)}${hint}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
