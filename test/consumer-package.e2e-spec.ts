import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  addToConsumerApp,
  APP_PEERS,
  buildsLoaded,
  compileConsumerApp,
  CONSUMER_APPS,
  ConsumerProof,
  CountingOpenAiServer,
  describeMode,
  FRAMEWORK_PEERS,
  installConsumerApp,
  installedCopies,
  installedVersion,
  moduleInstanceProblems,
  nodeBinary,
  packLibrary,
  missingFromApp,
  readmeImportedPackages,
  readmeTypeScriptBlocks,
  ReleaseChangeProof,
  runWithModuleLedger,
  writeReadmeBlocks,
  type ConsumerApp,
  type ConsumerMode,
  type ModuleLoad,
  type PackedLibrary,
  type ReleaseCase,
} from '../tools/consumer-apps';
import { PostgresServer, REPO_ROOT as REPO } from 'dev-services';
import { newestRelease } from '../tools/release/changelog-release';

/**
 * The library as NestJS teams get it: packed with `npm pack`, installed from the tarball with the
 * README's own install lines into two fresh apps, an ESM one as `nest new` makes it today on the
 * newest NestJS 12 and TypeORM 1 (SQLite, TypeScript 6) and a CommonJS one as Nest 11 made it on
 * the oldest NestJS 11 and TypeORM 0.3 (PostgreSQL), then SIGTERMed mid-run on Express and
 * Fastify, with the native and the AI SDK agent, under Node 22, 24 and 26 (see
 * tools/consumer-apps/consumer-app-matrix.ts). Every process runs under a module ledger that
 * shows which build of each peer it loaded; then each app adds the agent frameworks; last, each
 * app's order agent changes between two releases across a SIGTERM.
 */
let postgres: PostgresServer;
let openai: CountingOpenAiServer;
let packed: PackedLibrary;
const appDirs = new Map<string, string>();
let databases = 0;
const BIN = (name: string) => join(REPO, 'node_modules/.bin', name);
/** The library build each app must load: an ESM host the ES modules, a CommonJS host the CommonJS. */
const LIBRARY_BUILD = { esm: 'dist/esm', cjs: 'dist/cjs' } as const;

beforeAll(async () => {
  // Both apps install at once, beside the database and the Node runtimes they need.
  const nodes = new Set(CONSUMER_APPS.flatMap((app) => app.modes.map((mode) => mode.node)));
  const ready = Promise.all([
    PostgresServer.start(),
    CountingOpenAiServer.start(),
    ...[...nodes].map(nodeBinary),
  ]);
  packed = await packLibrary();
  const installs = await Promise.all(
    CONSUMER_APPS.map((app) => installConsumerApp(app, packed.tarball)),
  );
  installs.forEach((installed, index) => appDirs.set(CONSUMER_APPS[index].name, installed.dir));
  [postgres, openai] = await ready;
}, 600_000);

afterAll(async () => {
  await Promise.all([postgres?.destroy(), openai?.close()]);
});

/** A fresh store for one proof of `app`: an SQLite file, or a PostgreSQL database of its own; and the scripted models' server. */
async function proofEnv(app: ConsumerApp): Promise<Record<string, string>> {
  const store: Record<string, string> =
    app.store === 'sqlite'
      ? { SQLITE_FILE: join(mkdtempSync(join(tmpdir(), 'consumer-sqlite-')), 'agents.sqlite') }
      : { DATABASE_URL: await postgres.createDatabase(`consumer_${++databases}`) };
  return { ...store, OPENAI_BASE_URL: openai.baseUrl };
}

describe('the packed library', () => {
  it('holds only the build output, the README, the LICENSE and the CHANGELOG', () => {
    const outside = packed.files.filter(
      (file) =>
        !/^dist\/(esm|cjs)\/(.+\.(c?js|d\.c?ts)|package\.json)$/.test(file) &&
        !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(file),
    );
    expect(outside).toEqual([]);
    const builds = ['esm', 'cjs'].flatMap((build) => [
      `dist/${build}/package.json`,
      `dist/${build}/index.js`,
      `dist/${build}/index.d.ts`,
    ]);
    expect(packed.files).toEqual(
      expect.arrayContaining(['README.md', 'LICENSE', 'CHANGELOG.md', ...builds]),
    );
    expect(
      packed.files.filter(
        (file) => /\.spec\.|fixtures|\.ts$/.test(file) && !file.endsWith('.d.ts'),
      ),
    ).toEqual([]);
  });

  it("packs the version of the CHANGELOG's newest release", async () => {
    const read = async (file: string) =>
      (await promisify(execFile)('tar', ['-xOzf', packed.tarball, `package/${file}`])).stdout;
    const { version } = JSON.parse(await read('package.json')) as { version: string };
    expect(version).toBe(newestRelease(await read('CHANGELOG.md')).version);
  });

  it('passes publint --strict with nothing to report', async () => {
    const { stdout } = await promisify(execFile)(
      BIN('publint'),
      ['--strict', 'packages/nest-agent-graceful-shutdown'],
      { cwd: REPO },
    );
    expect(stdout).toContain('All good!');
  });

  it('passes arethetypeswrong on the tarball with no problems, for every entry under node10, node16 (CJS and ESM) and bundlers', async () => {
    const { stdout } = await promisify(execFile)(
      BIN('attw'),
      [packed.tarball, '--format', 'ascii'],
      { cwd: REPO },
    );
    expect(stdout).toContain('No problems found');
  });
});

describe.each(CONSUMER_APPS)('the $name consumer app', (app: ConsumerApp) => {
  it("installs from the README's lines with npm's default peer resolution, on exactly the versions the matrix pins", async () => {
    const dir = appDirs.get(app.name)!;
    const versions = await Promise.all(
      Object.keys(app.pins).map(async (name) => [name, await installedVersion(dir, name)]),
    );
    expect(Object.fromEntries(versions)).toEqual(app.pins);
  });

  it('loads one copy of @nestjs/core and one of @nestjs/common, its own', async () => {
    const dir = appDirs.get(app.name)!;
    expect(await installedCopies(dir, '@nestjs/core')).toEqual([
      join(dir, 'node_modules/@nestjs/core'),
    ]);
    expect(await installedCopies(dir, '@nestjs/common')).toEqual([
      join(dir, 'node_modules/@nestjs/common'),
    ]);
  });

  it('brings no driver or SDK the app does not use', () => {
    const otherDriver = app.store === 'sqlite' ? 'pg' : 'better-sqlite3';
    for (const unused of [
      otherDriver,
      'ioredis',
      'openai',
      '@nestjs/terminus',
      '@nestjs/jwt',
      '@nestjs/config',
    ]) {
      expect([unused, existsSync(join(appDirs.get(app.name)!, 'node_modules', unused))]).toEqual([
        unused,
        false,
      ]);
    }
  });
});

const CASES = CONSUMER_APPS.flatMap((app) =>
  app.modes.map((mode) => ({ app, mode, title: describeMode(app, mode) })),
);

describe.each(CASES)(
  'the consumer app $title',
  ({ app, mode }: { app: ConsumerApp; mode: ConsumerMode }) => {
    let proof: ConsumerProof;

    beforeAll(async () => {
      proof = new ConsumerProof(
        appDirs.get(app.name)!,
        mode,
        await nodeBinary(mode.node),
        await proofEnv(app),
      );
    });

    afterAll(async () => {
      await proof?.stop();
    });

    it('ends the stream with RUN_INTERRUPTED on SIGTERM mid-run, answers new runs 503 with Retry-After while its own handler holds the shutdown, runs each of its hooks once after the drain, and exits 0', async () => {
      await proof.interruptMidRun();
    });

    it(`loads one module instance of each peer it uses, and the library from its ${app.name} build only`, () => {
      const loads = proof.modulesLoaded();
      expect(
        moduleInstanceProblems(loads, [...APP_PEERS, `@nestjs/platform-${mode.platform}`]),
      ).toEqual([]);
      expect(buildsLoaded(loads, 'nest-agent-graceful-shutdown')).toEqual([
        LIBRARY_BUILD[app.name],
      ]);
    });

    it("resumes the run on a restarted app from the client's retry, storing each tool result once and running no finished call again; a plain client's re-send and join then end RUN_FINISHED", async () => {
      await proof.resumeOnRestart();
    });
  },
);

/**
 * What the README's blocks import that the app does not list yet (the AG-UI client the `/client`
 * entry needs, and Express's types, which `nest new` adds), at the repository's own versions, so
 * the app's pins (Nest 11 in the CommonJS app) and its framework releases stay as they are.
 */
function readmeExtras(dir: string, app: ConsumerApp): string[] {
  const { dependencies, devDependencies } = JSON.parse(
    readFileSync(join(REPO, 'package.json'), 'utf8'),
  ) as Record<string, Record<string, string>>;
  const known = { ...dependencies, ...devDependencies };
  const frameworks = new Set(app.frameworks.map((spec) => spec.slice(0, spec.lastIndexOf('@'))));
  return missingFromApp(dir, [...readmeImportedPackages(), '@ag-ui/client', '@types/express'])
    .filter((name) => !frameworks.has(name))
    .map((name) => (known[name] ? `${name}@${known[name]}` : name));
}

/**
 * Last, as the apps' own proofs above need an app without them: each app adds LangGraph.js, the
 * OpenAI Agents SDK and `openai`, compiles an entry that hands each framework's own objects to
 * the library's adapters (`frameworks/src/frameworks.ts`), and runs it under the module ledger.
 */
describe('the consumer apps with every agent framework', () => {
  const loaded = new Map<string, ModuleLoad[]>();
  const readmeErrors = new Map<string, string>();
  const readmeFiles = new Map<string, number>();

  beforeAll(async () => {
    await Promise.all(
      CONSUMER_APPS.map(async (app) => {
        const dir = appDirs.get(app.name)!;
        await addToConsumerApp(dir, [...app.frameworks, ...readmeExtras(dir, app)], ['frameworks']);
        await compileConsumerApp(app, dir);
        // Then the README's blocks, unchanged, beside the app's own sources, compiled by its own tsc and tsconfig.
        readmeFiles.set(app.name, writeReadmeBlocks(dir).length);
        readmeErrors.set(
          app.name,
          await compileConsumerApp(app, dir).then(
            () => '',
            (error: Error) => error.message,
          ),
        );
        loaded.set(
          app.name,
          await runWithModuleLedger(dir, await nodeBinary(app.modes[0].node), 'dist/frameworks.js'),
        );
      }),
    );
  }, 300_000);

  it.each(CONSUMER_APPS)(
    'the $name app compiles langGraphAgent(graph), openAiAgent(agent) and aiSdkAgent(…) on its own imports, and loads one module instance of each framework package',
    (app: ConsumerApp) => {
      const loads = loaded.get(app.name)!;
      expect(moduleInstanceProblems(loads, FRAMEWORK_PEERS)).toEqual([]);
      expect(buildsLoaded(loads, 'nest-agent-graceful-shutdown')).toEqual([
        LIBRARY_BUILD[app.name],
      ]);
    },
  );

  it.each(CONSUMER_APPS)(
    'the $name app compiles every TypeScript block of the library README as written',
    (app: ConsumerApp) => {
      expect(readmeFiles.get(app.name)).toBe(readmeTypeScriptBlocks().length);
      expect(readmeFiles.get(app.name)).toBeGreaterThan(0);
      expect(readmeErrors.get(app.name)).toBe('');
    },
  );
});

/** The order agent's cases: each run is held on v1 with its `charge_card` call about to run, then retried on this release. */
const RELEASE_CASES: ReleaseCase[] = [
  { framework: 'native', to: 'v2-no-charge' },
  { framework: 'native', to: 'v2-currency' },
  { framework: 'ai-sdk', to: 'v2-currency' },
  { framework: 'langgraph', to: 'v2-planner' },
  { framework: 'native', to: 'v1' },
];

/**
 * A rolling deployment that changes the app's order agent (look up, charge, send a receipt;
 * `shared/src/order-agent.ts`, `ai-sdk-order-agent.ts`, `frameworks/src/graph-order-agent.ts`):
 * v1 is SIGTERMed with each run's `charge_card` call about to run, and the same request is
 * retried on v2 (ORDER_AGENT), on the app's own store (SQLite in the ESM app, PostgreSQL in the
 * CommonJS one). After the framework phase, which adds LangGraph to the apps.
 */
describe.each(CONSUMER_APPS)(
  'the $name consumer app across a release of its order agent',
  (app: ConsumerApp) => {
    let proof: ReleaseChangeProof;

    beforeAll(async () => {
      proof = new ReleaseChangeProof(
        appDirs.get(app.name)!,
        await nodeBinary(app.modes[0].node),
        await proofEnv(app),
      );
      await proof.interruptAtCharge(RELEASE_CASES);
    }, 120_000);

    afterAll(async () => {
      await proof?.stop();
    });

    it('answers the held call "not run" when v2 of the native agent dropped charge_card: never run, logged at warn with both versions, and the run finishes on v2', async () => {
      await proof.removedTool('native');
    });

    it("never runs the native charge_card on v1's arguments when v2's schema requires a currency: the call is answered with the validation error", async () => {
      await proof.refusedArguments('native');
    });

    it("never runs the AI SDK charge_card on v1's arguments when v2's zod schema requires a currency", async () => {
      await proof.refusedArguments('ai-sdk');
    });

    it('finishes the LangGraph run on v2, which added a planner node and a plan channel its agent reads, or at worst its next turn, charging at most once', async () => {
      await proof.changedGraph();
    });

    it(`records version 1.0.0 and one fingerprint on the interrupted attempt and its retry on the same release, in ${app.store}`, async () => {
      const recorded = await proof.sameRelease('native');
      expect(recorded).toEqual({
        agentVersion: '1.0.0',
        agentFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
      });
    });
  },
);
