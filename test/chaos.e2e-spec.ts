import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { FAULT_KINDS } from '../tools/chaos/chaos-schedule';

const run = promisify(execFile);
const CLI = resolve(__dirname, '../dist-tools/tools/chaos/run.js');

/** The seed of the short run: its 50 s schedule holds every kind of fault (asserted below), the kills early enough to settle soon. */
const SEED = 313;
const SECONDS = 50;
const CLIENTS = 10;

/** The short chaos run: about 20 s to start the fleet, the 50 s window, its settle and the audit. */
const CHAOS_TIMEOUT_MS = 150_000;

/** `npm run chaos` as built (`dist-tools`), with `args`; resolves with its output and exit code. */
async function chaos(
  args: string[],
  timeoutMs: number,
): Promise<{ lines: string[]; code: number }> {
  const result = await run(process.execPath, [CLI, ...args], {
    timeout: timeoutMs,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout }) => ({ stdout, code: 0 }),
    (error: { stdout?: string; stderr?: string; code?: number }) => ({
      stdout: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      code: error.code ?? 1,
    }),
  );
  return { lines: result.stdout.split('\n').filter((line) => line.length > 0), code: result.code };
}

/** The schedule lines of a dry run (the seed line excluded). */
async function dryRun(seed: number): Promise<string[]> {
  const { lines, code } = await chaos(
    [
      '--seed',
      String(seed),
      '--seconds',
      String(SECONDS),
      '--clients',
      String(CLIENTS),
      '--dry-run',
    ],
    30_000,
  );
  expect(code).toBe(0);
  expect(lines[0]).toMatch(new RegExp(`^seed ${seed}\\b`));
  return lines.slice(1);
}

describe('npm run chaos -- --dry-run', () => {
  it('prints the same schedule lines for the same seed', async () => {
    const first = await dryRun(SEED);
    expect(first.length).toBeGreaterThan(10);
    expect(await dryRun(SEED)).toEqual(first);
  });

  it('prints a different schedule for another seed', async () => {
    expect(await dryRun(SEED + 1)).not.toEqual(await dryRun(SEED));
  });

  it('schedules every kind of fault for the seed of the short run', async () => {
    const actions = (await dryRun(SEED)).map((line) => line.split(/\s+/)[2]);
    for (const kind of FAULT_KINDS) expect(actions).toContain(kind);
  });
});

describe(`npm run chaos -- --seed ${SEED} --seconds ${SECONDS}`, () => {
  it(
    'passes its audit after every kind of fault, cancels and approval answers',
    async () => {
      // Kept after the run (git-ignored), for reading the instances' logs when the audit fails.
      const logs = join(__dirname, '..', 'test-artifacts', 'chaos', `seed-${SEED}`);
      rmSync(logs, { recursive: true, force: true });
      const { lines, code } = await chaos(
        [
          '--seed',
          String(SEED),
          '--seconds',
          String(SECONDS),
          '--clients',
          String(CLIENTS),
          '--logs',
          logs,
        ],
        CHAOS_TIMEOUT_MS - 5_000,
      );
      console.log(lines.join('\n'));
      const executed = lines.filter((line) => line.includes(' → '));
      for (const kind of FAULT_KINDS)
        expect(executed.some((line) => line.trim().split(/\s+/)[2] === kind)).toBe(true);
      expect(lines).toContain('PASSED');
      expect(code).toBe(0);
    },
    CHAOS_TIMEOUT_MS,
  );
});
