import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throughputCharts } from './bench-charts';
import { throughputReport } from './throughput-report';
import { throughputSubjects } from './throughput-subjects';
import { measureThroughput, type ThroughputResult, type ThroughputRow } from './throughput.bench';

// The throughput section at a few runs of two steps: a check of its shape, not a measurement.
describe('throughput bench (quick, real PostgreSQL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'throughput-'));
  const profilePath = join(dir, 'quick.cpuprofile');
  let result: ThroughputResult;

  beforeAll(async () => {
    const options = { concurrencies: [2], stepsPerRun: 2, minRunsPerCase: 2, warmupRuns: 1 };
    result = await measureThroughput({
      ...options,
      profile: { subject: 'native runtime + module', path: profilePath },
    });
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures every subject without a failure', () => {
    expect(result.failures).toEqual([]);
    expect(result.rows.map((row) => row.subject)).toEqual(
      throughputSubjects().map((subject) => subject.name),
    );
  });

  it('counts round trips and bytes for the subjects that persist, and none for the floors', () => {
    for (const row of result.rows) {
      const persists = row.kind !== 'floor';
      expect([row.subject, row.roundTripsPerStep > 0, row.bytesPerStep > 0]).toEqual([
        row.subject,
        persists,
        persists,
      ]);
    }
  });

  it('times every step of every run, and its write wait where writes hold steps', () => {
    const steps = (row: ThroughputRow) => row.runs * (result.options.stepsPerRun - 1);
    for (const row of result.rows) {
      const waits =
        row.kind === 'module' || row.subject.endsWith('(sync)') ? steps(row) : undefined;
      expect([row.subject, row.stepMs.count, row.writeWaitMs?.count]).toEqual([
        row.subject,
        steps(row),
        waits,
      ]);
    }
  });

  it('prints the table with the peer and every target', () => {
    const report = throughputReport(result);
    expect(report).toContain('LangGraph + PostgresSaver (sync)');
    expect(report).toMatch(
      /steps\/s under the module \/ LangGraph \+ PostgresSaver \(sync\), >= 1x at every concurrency/,
    );
    expect(report).toMatch(/with no persistence, >= 0.8x at 2 at once/);
    expect(report).toMatch(
      /PostgreSQL round trips of a 2-step run under the module, start and end included, <= 8/,
    );
    expect(report).toMatch(/the module's own CPU per step/);
    expect(report).toMatch(/per-step added latency p99 under the module on PostgreSQL, <= 5 ms/);
  });

  it('writes the CPU profile and draws the chart', async () => {
    expect(existsSync(profilePath)).toBe(true);
    const [chart] = await throughputCharts(result);
    expect(chart.svg).toContain('<svg');
  });
});
