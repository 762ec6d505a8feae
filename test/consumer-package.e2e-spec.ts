import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CONSUMER_APPS,
  ConsumerProof,
  CountingOpenAiServer,
  describeMode,
  installConsumerApp,
  installedCopies,
  installedVersion,
  nodeBinary,
  packLibrary,
  type ConsumerApp,
  type ConsumerMode,
  type PackedLibrary,
} from '../tools/consumer-apps';
import { PostgresServer, REPO_ROOT as REPO } from 'dev-services';

/**
 * The library as NestJS teams get it: packed with `npm pack`, installed from the tarball with the
 * README's own install lines into two fresh apps, an ESM one on the newest NestJS 12 and TypeORM 1
 * (SQLite) and a CommonJS one on the oldest NestJS 11 and TypeORM 0.3 (PostgreSQL), then
 * SIGTERMed mid-run on Express and Fastify, with the native and the AI SDK agent, under Node 22,
 * 24 and 26 (see tools/consumer-apps/consumer-app-matrix.ts).
 */
let postgres: PostgresServer;
let openai: CountingOpenAiServer;
let packed: PackedLibrary;
const appDirs = new Map<string, string>();
let databases = 0;
const BIN = (name: string) => join(REPO, 'node_modules/.bin', name);

beforeAll(async () => {
  // Both apps install at once, beside the database and the Node runtimes they need.
  const nodes = new Set(CONSUMER_APPS.flatMap((app) => app.modes.map((mode) => mode.node)));
  const ready = Promise.all([PostgresServer.start(), CountingOpenAiServer.start(), ...[...nodes].map(nodeBinary)]);
  packed = await packLibrary();
  const installs = await Promise.all(CONSUMER_APPS.map((app) => installConsumerApp(app, packed.tarball)));
  installs.forEach((installed, index) => appDirs.set(CONSUMER_APPS[index].name, installed.dir));
  [postgres, openai] = await ready;
}, 600_000);

afterAll(async () => {
  await Promise.all([postgres?.destroy(), openai?.close()]);
});

describe('the packed library', () => {
  it('holds only the build output, the README, the LICENSE and the CHANGELOG', () => {
    const outside = packed.files.filter(
      (file) => !/^dist\/.+\.(js|d\.ts)$/.test(file) && !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(file),
    );
    expect(outside).toEqual([]);
    expect(packed.files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts']));
    expect(packed.files.filter((file) => /\.spec\.|fixtures|\.ts$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
  });

  it('passes publint --strict with nothing to report', async () => {
    const { stdout } = await promisify(execFile)(BIN('publint'), ['--strict', 'packages/nest-agent-graceful-shutdown'], { cwd: REPO });
    expect(stdout).toContain('All good!');
  });

  it('passes arethetypeswrong on the tarball with no problems, for every entry under node10, node16 (CJS and ESM) and bundlers', async () => {
    const { stdout } = await promisify(execFile)(BIN('attw'), [packed.tarball, '--format', 'ascii'], { cwd: REPO });
    expect(stdout).toContain('No problems found');
  });
});

describe.each(CONSUMER_APPS)('the $name consumer app', (app: ConsumerApp) => {
  it("installs from the README's lines with npm's default peer resolution, on exactly the versions the matrix pins", async () => {
    const dir = appDirs.get(app.name)!;
    const versions = await Promise.all(Object.keys(app.pins).map(async (name) => [name, await installedVersion(dir, name)]));
    expect(Object.fromEntries(versions)).toEqual(app.pins);
  });

  it('loads one copy of @nestjs/core and one of @nestjs/common, its own', async () => {
    const dir = appDirs.get(app.name)!;
    expect(await installedCopies(dir, '@nestjs/core')).toEqual([join(dir, 'node_modules/@nestjs/core')]);
    expect(await installedCopies(dir, '@nestjs/common')).toEqual([join(dir, 'node_modules/@nestjs/common')]);
  });

  it('brings no driver or SDK the app does not use', () => {
    const otherDriver = app.store === 'sqlite' ? 'pg' : 'better-sqlite3';
    for (const unused of [otherDriver, 'ioredis', 'openai', '@nestjs/terminus', '@nestjs/jwt', '@nestjs/config']) {
      expect([unused, existsSync(join(appDirs.get(app.name)!, 'node_modules', unused))]).toEqual([unused, false]);
    }
  });
});

const CASES = CONSUMER_APPS.flatMap((app) => app.modes.map((mode) => ({ app, mode, title: describeMode(app, mode) })));

describe.each(CASES)('the consumer app $title', ({ app, mode }: { app: ConsumerApp; mode: ConsumerMode }) => {
  let proof: ConsumerProof;

  beforeAll(async () => {
    const store: Record<string, string> =
      app.store === 'sqlite'
        ? { SQLITE_FILE: join(mkdtempSync(join(tmpdir(), 'consumer-sqlite-')), 'agents.sqlite') }
        : { DATABASE_URL: await postgres.createDatabase(`consumer_${++databases}`) };
    proof = new ConsumerProof(appDirs.get(app.name)!, mode, await nodeBinary(mode.node), { ...store, OPENAI_BASE_URL: openai.baseUrl });
  });

  afterAll(async () => {
    await proof?.stop();
  });

  it('ends the stream with RUN_INTERRUPTED on SIGTERM mid-run, answers new runs 503 with Retry-After while its own handler holds the shutdown, runs each of its hooks once after the drain, and exits 0', async () => {
    await proof.interruptMidRun();
  });

  it("resumes the run on a restarted app from the client's retry, storing each tool result once and running no finished call again", async () => {
    await proof.resumeOnRestart();
  });
});
