import { summarize } from './bench-stats';
import type { SubjectKind } from './throughput-subjects';
import type { ThroughputResult, ThroughputRow } from './throughput.bench';
import { addedLatencyMs, PEER, throughputReport } from './throughput-report';

const options = { concurrencies: [10, 1_000], stepsPerRun: 3, minRunsPerCase: 200, warmupRuns: 20 };

function row(
  subject: string,
  framework: string,
  kind: SubjectKind,
  concurrency: number,
  stepsPerSecond: number,
  waits: number[],
): ThroughputRow {
  return {
    subject,
    framework,
    kind,
    concurrency,
    runs: 200,
    steps: 4_000,
    elapsedMs: 4_000_000 / stepsPerSecond,
    stepsPerSecond,
    stepMs: summarize(waits.map((wait) => wait + 1)),
    writeWaitMs: kind === 'floor' ? undefined : summarize(waits),
    roundTripsPerStep: kind === 'floor' ? 0 : kind === 'module' ? 2 : 9,
    bytesPerStep: kind === 'floor' ? 0 : 8_000,
    cpuMicrosPerStep: kind === 'floor' ? 100 : 700,
    postgresCpuMicrosPerStep: kind === 'floor' ? 0 : 500,
  };
}

const rows = [10, 1_000].flatMap((n) => [
  row('LangGraph, no persistence', 'LangGraph', 'floor', n, 2_000, [0, 0, 0]),
  row('LangGraph + module', 'LangGraph', 'module', n, n === 10 ? 300 : 900, [3, 3, 5]),
  row(PEER, 'LangGraph', 'peer', n, 250, [9, 9, 12]),
]);
const result: ThroughputResult = { options, rows, failures: [] };

describe('throughput report', () => {
  it('takes added latency from the time steps waited on their writes', () => {
    expect(addedLatencyMs(rows[1])).toEqual({ p50: 3, p99: summarize([3, 3, 5]).p99 });
  });

  it('has no added latency where writes do not hold steps', () => {
    expect(addedLatencyMs(rows[0])).toBeUndefined();
  });

  it('judges the steps/s ratio against the peer at every concurrency', () => {
    const report = throughputReport(result);
    expect(report).toContain('LangGraph + module, 10 at once: 1.20x  pass');
    expect(report).toContain('LangGraph + module, 1,000 at once: 3.60x  pass');
  });

  it('judges the ratio to the floor at 1,000 at once', () => {
    expect(throughputReport(result)).toMatch(
      /with no persistence, >= 0.8x at 1,000 at once:\n {4}LangGraph \+ module: 0.45x {2}TARGET MISSED/,
    );
  });

  it("judges a run's round trips (per step times the run's steps) and the module's CPU per step above its floor's", () => {
    const report = throughputReport(result);
    expect(report).toMatch(/start and end included, <= 8:\n {4}LangGraph \+ module: 6.0 {2}pass/);
    expect(report).toContain('LangGraph + module, 10 at once: 600 µs  TARGET MISSED');
    expect(report).not.toContain('LangGraph + module, 1,000 at once: 600 µs');
  });

  it('marks an added p99 over the target as missed, and one within it as met', () => {
    const slow = throughputReport({
      ...result,
      rows: rows.map((r) =>
        r.kind === 'module' ? { ...r, writeWaitMs: summarize([30, 30, 40]) } : r,
      ),
    });
    expect(slow).toMatch(/LangGraph \+ module, 10 at once: [\d.]+ ms {2}TARGET MISSED/);
    expect(throughputReport(result)).toMatch(/LangGraph \+ module, 10 at once: [\d.]+ ms {2}pass/);
  });

  it('lists failed cases after the targets', () => {
    expect(
      throughputReport({
        ...result,
        failures: ['AI SDK + module at 10 runs at once: measurement failed: boom'],
      }),
    ).toMatch(/boom$/);
  });
});
