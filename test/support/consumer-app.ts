import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT as REPO } from '../../tools/local-services';
import { waitFor } from './wait-for';

const run = promisify(execFile);
const FIXTURE = join(REPO, 'test/fixtures/consumer-app');

/**
 * The Nest 11 release the consumer app installs: another minor than the repository pins, as a
 * team on its own release would have.
 */
export const CONSUMER_NEST_VERSION = '11.1.19';

/** Packs the library as `npm publish` would, into a fresh folder; returns the tarball's path and its file list. */
export async function packLibrary(): Promise<{ tarball: string; files: string[] }> {
  const destination = mkdtempSync(join(tmpdir(), 'library-pack-'));
  const { stdout } = await run('npm', ['pack', '-w', 'nest-agent-graceful-shutdown', '--pack-destination', destination, '--json'], {
    cwd: REPO,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(destination, packed.filename), files: packed.files.map((file) => file.path) };
}

/**
 * Copies the consumer fixture (a NestJS app written from the library README) into a fresh
 * folder, installs the packed tarball with the app's own dependencies from the registry, and
 * compiles it. Returns the folder.
 */
export async function installConsumerApp(tarball: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'consumer-app-'));
  cpSync(FIXTURE, dir, { recursive: true });
  const nest = CONSUMER_NEST_VERSION;
  const manifest = {
    name: 'consumer-app',
    private: true,
    dependencies: {
      '@nestjs/common': nest,
      '@nestjs/core': nest,
      '@nestjs/platform-express': nest,
      '@nestjs/platform-fastify': nest,
      '@nestjs/typeorm': '11.0.0',
      'nest-agent-graceful-shutdown': `file:${tarball}`,
      pg: '8.16.3',
      'reflect-metadata': '0.2.2',
      rxjs: '7.8.2',
      typeorm: '0.3.27',
    },
    devDependencies: { '@types/node': '20.19.43', typescript: '5.9.3' },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: dir, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
  await run(join(dir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir, timeout: 120_000 });
  return dir;
}

/** The installed copies of a package in the app, by `npm ls`. */
export async function installedCopies(dir: string, name: string): Promise<string[]> {
  const { stdout } = await run('npm', ['ls', name, '--all', '--parseable'], { cwd: dir }).catch((error: { stdout?: string }) => ({
    stdout: error.stdout ?? '',
  }));
  return stdout.split('\n').filter((line) => line.includes(`node_modules/${name}`));
}

/** The consumer app in a child process, receiving real signals. */
export class ConsumerProcess {
  readonly baseUrl: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private output = '';

  private constructor(
    readonly child: ChildProcess,
    port: number,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  }

  /** Starts `node dist/main.js` in `dir` and waits until it answers. `node` defaults to this process's binary. */
  static async start(dir: string, env: Record<string, string>, node = process.execPath): Promise<ConsumerProcess> {
    const port = await freePort();
    const child = spawn(node, ['dist/main.js'], { cwd: dir, env: { PATH: process.env.PATH, PORT: String(port), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const app = new ConsumerProcess(child, port);
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`consumer app exited during startup:\n${app.logs}`);
        return (await fetch(`${app.baseUrl}/ready`).catch(() => null))?.status === 200;
      },
      'the consumer app to answer',
      60_000,
      100,
    );
    return app;
  }

  get logs(): string {
    return this.output;
  }

  /** Tool executions the app logged, by tool-call id. */
  executions(): string[] {
    return [...this.output.matchAll(/"msg":"count executed","n":\d+,"toolCallId":"([^"]+)"/g)].map((match) => match[1]);
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  async waitForExit(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`consumer app did not exit within ${timeoutMs} ms:\n${this.logs}`)), timeoutMs)),
    );
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
