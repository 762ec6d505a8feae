import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureNodeRuntime, PostgresServer, REPO_ROOT as REPO, type NodeMajor } from '../tools/local-services';
import { CONSUMER_NEST_VERSION, ConsumerProcess, installConsumerApp, installedCopies, packLibrary } from './support/consumer-app';
import { runInput } from './support/http';
import { postRun } from './support/sse';

/**
 * The library as a NestJS team gets it: packed with `npm pack`, installed from the tarball into
 * an app of their own (test/fixtures/consumer-app, written from the library README) on another
 * Nest 11 release, then SIGTERMed mid-run on Express, on Fastify, and with Nest's own
 * `enableShutdownHooks()`.
 */
let postgres: PostgresServer;
let tarball: string;
let tarballFiles: string[];
let appDir: string;
let databases = 0;
const BIN = (name: string) => join(REPO, 'node_modules/.bin', name);

beforeAll(async () => {
  const [packed, server] = await Promise.all([packLibrary(), PostgresServer.start()]);
  postgres = server;
  tarball = packed.tarball;
  tarballFiles = packed.files;
  appDir = await installConsumerApp(packed.tarball);
}, 600_000);

afterAll(async () => {
  await postgres?.destroy();
});

describe('the packed library', () => {
  it('holds only the build output, the README, the LICENSE and the CHANGELOG', () => {
    const outside = tarballFiles.filter(
      (file) => !/^dist\/.+\.(js|d\.ts)$/.test(file) && !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(file),
    );
    expect(outside).toEqual([]);
    expect(tarballFiles).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts']));
    expect(tarballFiles.filter((file) => /\.spec\.|fixtures|\.ts$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
  });

  it("installs into an app on another Nest 11 release with one copy of @nestjs/core, the app's own", async () => {
    const copies = await installedCopies(appDir, '@nestjs/core');
    expect(copies).toEqual([join(appDir, 'node_modules/@nestjs/core')]);
    const installed = JSON.parse(readFileSync(join(appDir, 'node_modules/@nestjs/core/package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe(CONSUMER_NEST_VERSION);
  });

  it('passes publint --strict with nothing to report', async () => {
    const { stdout } = await promisify(execFile)(BIN('publint'), ['--strict', 'packages/nest-agent-graceful-shutdown'], { cwd: REPO });
    expect(stdout).toContain('All good!');
  });

  it('passes arethetypeswrong on the tarball with no problems, for node10, node16 (CJS and ESM) and bundlers', async () => {
    const { stdout } = await promisify(execFile)(BIN('attw'), [tarball, '--format', 'ascii'], { cwd: REPO });
    expect(stdout).toContain('No problems found');
  });

  it('brings no driver or SDK the app does not use', () => {
    for (const unused of ['better-sqlite3', 'ioredis', 'openai', '@nestjs/terminus', '@nestjs/jwt', '@nestjs/config']) {
      expect([unused, existsSync(join(appDir, 'node_modules', unused))]).toEqual([unused, false]);
    }
  });
});

/** How the app runs: its platform and signal handling, and the Node major (default: this process's, the project's Node 24). */
const MODES: Array<{ name: string; env: Record<string, string>; node?: NodeMajor }> = [
  { name: 'on Express', env: { PLATFORM: 'express' } },
  { name: 'on Fastify', env: { PLATFORM: 'fastify' } },
  { name: 'on Express with app.enableShutdownHooks()', env: { PLATFORM: 'express', SHUTDOWN_HOOKS: '1' } },
  { name: 'on Fastify under Node 22', env: { PLATFORM: 'fastify' }, node: 22 },
  { name: 'on Express with app.enableShutdownHooks() under Node 26', env: { PLATFORM: 'express', SHUTDOWN_HOOKS: '1' }, node: 26 },
];

describe.each(MODES)('a consumer app $name', ({ env, node }) => {
  const user = { 'x-user': 'alice' };
  const processes: ConsumerProcess[] = [];
  let environment: Record<string, string>;
  let hooksFile: string;
  const threadId = `thread-${env.PLATFORM}-${env.SHUTDOWN_HOOKS ?? '0'}-${node ?? 20}`;
  let nodeBinary = process.execPath;
  const input = runInput(threadId, 'run-1', [{ id: 'user-1', content: 'count to four' }]);
  let firstExecutions: string[] = [];

  beforeAll(async () => {
    hooksFile = join(mkdtempSync(join(tmpdir(), 'consumer-hooks-')), 'hooks.jsonl');
    environment = { ...env, DATABASE_URL: await postgres.createDatabase(`consumer_${++databases}`), HOOKS_FILE: hooksFile };
    if (node) nodeBinary = await ensureNodeRuntime(node);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(processes.map((app) => app.stop()));
  });

  it('ends the stream with RUN_INTERRUPTED on SIGTERM mid-run, answers new runs 503 with Retry-After while its own handler holds the shutdown, runs each of its hooks once after the drain, and exits 0', async () => {
    const app = await ConsumerProcess.start(appDir, environment, nodeBinary);
    processes.push(app);
    const stream = await postRun(`${app.baseUrl}/chat`, user, input);
    expect(stream.status).toBe(200);
    if (node) expect(app.logs).toContain(`"node":"v${node}.`);
    await stream.waitForEvent((event) => event.type === 'TOOL_CALL_RESULT', 'the first tool result');

    app.kill('SIGTERM');

    expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    // The app's handler holds the shutdown open: new runs are refused through Nest's own exception layer.
    const refused = await fetch(`${app.baseUrl}/chat`, {
      method: 'POST',
      headers: { ...user, 'content-type': 'application/json' },
      body: JSON.stringify(runInput(`${threadId}-late`, 'run-1', [{ id: 'late-1', content: 'too late' }])),
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ statusCode: 503, code: 'SHUTTING_DOWN' });
    expect((await fetch(`${app.baseUrl}/release`, { method: 'POST' })).status).toBe(201);

    expect(await app.waitForExit(15_000)).toEqual({ code: 0, signal: null });
    const hooks = readFileSync(hooksFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { hook: string; drain: string });
    expect(hooks.map((entry) => entry.hook)).toEqual(['shutdownHandler', 'onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown']);
    expect(hooks.slice(1).map((entry) => entry.drain)).toEqual(['done', 'done', 'done']);
    firstExecutions = app.executions();
  });

  it("resumes the run on a restarted app from the client's retry, storing each tool result once and running no finished call again", async () => {
    const app = await ConsumerProcess.start(appDir, environment, nodeBinary);
    processes.push(app);

    const retry = await postRun(`${app.baseUrl}/chat`, user, input);

    expect(await retry.terminal()).toMatchObject({ type: 'RUN_FINISHED', threadId, runId: 'run-1' });
    const response = await fetch(`${app.baseUrl}/threads/${threadId}/messages`, { headers: user });
    const { messages } = (await response.json()) as { messages: Array<{ role: string; content: string; toolCallId?: string }> };
    const results = messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.toolCallId)).toEqual([...new Set(results.map((message) => message.toolCallId))]);
    expect(results.filter((message) => /^counted \d$/.test(message.content)).map((message) => message.content)).toEqual([
      'counted 1',
      'counted 2',
      'counted 3',
      'counted 4',
    ]);
    expect(messages.filter((message) => message.role === 'system')).toHaveLength(1);
    const finishedBefore = results.filter((message) => firstExecutions.includes(message.toolCallId ?? '') && message.content.startsWith('counted'));
    expect(app.executions().filter((id) => finishedBefore.some((message) => message.toolCallId === id))).toEqual([]);
  });
});
