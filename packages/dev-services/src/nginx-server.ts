import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { nginxBinary } from './debian-packages';
import { freePort } from './free-port';

const execFileAsync = promisify(execFile);

/** How long nginx may take to serve a new configuration (start or reload), in ms. */
const CONFIG_TIMEOUT_MS = 15_000;

/** How long `destroy()` waits for a graceful quit before SIGKILL, in ms. */
const STOP_TIMEOUT_MS = 10_000;

/** The path nginx answers with its configuration's generation, so a reload can be awaited. */
const GENERATION_PATH = '/__lb/generation';

export interface NginxServerOptions {
  /** Upstream servers, as `host:port`. Default: none (requests get 502 until some are set). */
  upstreams?: string[];
  /** Upper bound on one proxied stream's silence, in seconds. Default: 300. */
  proxyReadTimeoutSeconds?: number;
}

/** Children still running, killed if the node process exits without destroying them. */
const live = new Set<ChildProcess>();

function killAllOnExit(): void {
  for (const child of live) child.kill('SIGKILL');
}

function getText(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: a kept-alive one may still belong to a retiring worker.
    const req = request(
      url,
      { agent: false, timeout: 1_000, headers: { connection: 'close' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * A real nginx on 127.0.0.1 as the load balancer in front of several service instances, the way
 * an ingress controller fronts a Deployment's ready endpoints: round robin, streams passed
 * through unbuffered, a new upstream connection per request, and a request whose connection is
 * refused passed to the next server. `setUpstreams()` rewrites the configuration and reloads
 * (SIGHUP): new connections see the new set, streams in flight finish on the old workers.
 * Needs the `nginx` binary (see `ensureLocalServicePackages`); call `destroy()` when done.
 */
export class NginxServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  private generation = 0;
  private upstreams: string[] = [];
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly prefix: string,
    private readonly binary: string,
    readonly port: number,
    private readonly options: NginxServerOptions,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.exited = new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
  }

  /** Starts nginx with `options.upstreams` and resolves once it serves that configuration. */
  static async start(options: NginxServerOptions = {}): Promise<NginxServer> {
    const binary = nginxBinary();
    const prefix = mkdtempSync(join(tmpdir(), 'nginx-lb-'));
    // Workers drop root privileges (to nobody) and must reach their temp paths under the prefix.
    chmodSync(prefix, 0o755);
    const port = await freePort();
    const configFile = join(prefix, 'nginx.conf');
    writeFileSync(
      configFile,
      NginxServer.config(prefix, port, options.upstreams ?? [], 0, options),
    );
    const child = spawn(binary, ['-p', prefix, '-c', configFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.unref();
    if (live.size === 0) process.once('exit', killAllOnExit);
    live.add(child);
    const server = new NginxServer(child, prefix, binary, port, options);
    server.upstreams = [...(options.upstreams ?? [])];
    try {
      await server.waitForGeneration(0);
    } catch (error) {
      await server.destroy();
      throw error;
    }
    return server;
  }

  /** The upstream servers nginx currently routes to. */
  get servers(): readonly string[] {
    return this.upstreams;
  }

  /**
   * Routes new requests to `upstreams` (`host:port`): checks the new configuration with
   * `nginx -t`, reloads, and resolves once new connections are served by it.
   */
  async setUpstreams(upstreams: readonly string[]): Promise<void> {
    const generation = this.generation + 1;
    const configFile = join(this.prefix, 'nginx.conf');
    const candidate = join(this.prefix, 'nginx.next.conf');
    writeFileSync(
      candidate,
      NginxServer.config(this.prefix, this.port, upstreams, generation, this.options),
    );
    await execFileAsync(this.binary, ['-t', '-q', '-p', this.prefix, '-c', candidate], {
      timeout: CONFIG_TIMEOUT_MS,
    });
    renameSync(candidate, configFile);
    this.child.kill('SIGHUP');
    await this.waitForGeneration(generation);
    this.upstreams = [...upstreams];
  }

  /** Quits gracefully (SIGQUIT: streams in flight finish), SIGKILL after a deadline; removes its files. */
  async destroy(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGQUIT');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>(
        (resolve) => (timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS)),
      );
      if ((await Promise.race([this.exited, late])) === 'late') this.child.kill('SIGKILL');
      clearTimeout(timer);
      await this.exited;
    }
    live.delete(this.child);
    if (live.size === 0) process.removeListener('exit', killAllOnExit);
    rmSync(this.prefix, { recursive: true, force: true });
  }

  private async waitForGeneration(generation: number): Promise<void> {
    const deadline = Date.now() + CONFIG_TIMEOUT_MS;
    for (;;) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(
          `nginx exited (code ${this.child.exitCode}, signal ${this.child.signalCode}); see ${join(this.prefix, 'error.log')}`,
        );
      }
      const answer = await getText(`${this.url}${GENERATION_PATH}`).catch(() => undefined);
      if (answer?.status === 200 && Number(answer.body) >= generation) {
        this.generation = generation;
        return;
      }
      if (Date.now() > deadline)
        throw new Error(
          `nginx did not serve configuration ${generation} within ${CONFIG_TIMEOUT_MS} ms`,
        );
      await sleep(20);
    }
  }

  private static config(
    prefix: string,
    port: number,
    upstreams: readonly string[],
    generation: number,
    options: NginxServerOptions,
  ): string {
    // nginx refuses an empty upstream block; a server marked down makes requests fail with 502.
    const servers = upstreams.length
      ? upstreams.map((server) => `    server ${server};`)
      : ['    server 127.0.0.1:9 down;'];
    return `daemon off;
master_process on;
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${join(prefix, 'client_body')};
  proxy_temp_path ${join(prefix, 'proxy')};
  fastcgi_temp_path ${join(prefix, 'fastcgi')};
  uwsgi_temp_path ${join(prefix, 'uwsgi')};
  scgi_temp_path ${join(prefix, 'scgi')};
  upstream agents {
${servers.join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location = ${GENERATION_PATH} { default_type text/plain; return 200 "${generation}"; }
    location / {
      proxy_pass http://agents;
      proxy_http_version 1.1;
      # Event streams go to the client as they are written.
      proxy_buffering off;
      proxy_read_timeout ${options.proxyReadTimeoutSeconds ?? 300}s;
      # A refused connection (an instance that just exited) is retried on the next server;
      # nginx never resends a POST that an upstream already received.
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 3;
    }
  }
}
`;
  }
}
