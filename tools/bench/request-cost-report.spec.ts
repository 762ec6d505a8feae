import type { CostRow, RequestCostResult } from './request-cost.bench';
import { answersText, cpuMicrosOfRow, requestCostReport } from './request-cost-report';

const options = {
  clients: 2,
  warmupMs: 1_000,
  warmupRounds: 2,
  batchMs: 1_500,
  batches: 3,
  maxBatchRequests: 3_000,
  attackers: 4,
  latencyWindowMs: 5_000,
};

function row(
  subject: CostRow['subject'],
  kind: string,
  batchMicros: number[],
  answers: [string, number][],
  baseline = false,
): CostRow {
  return {
    subject,
    kind,
    expected: Number(answers[0][0].slice(0, 3)),
    baseline,
    refusedUnread: true,
    counts: new Map(answers),
    batchMicros,
  };
}

const rows = [
  row('service', 'plain', [400, 500, 450], [['401 UNAUTHORIZED', 900]], true),
  row('service', 'hostile', [900, 1_000, 800], [['401 UNAUTHORIZED', 800]]),
  row('peer', 'plain', [300, 300, 300], [['401', 900]], true),
  row('peer', 'hostile', [30_000, 30_000, 30_000], [['400', 20]]),
];
const result: RequestCostResult = {
  options,
  rows,
  latency: [
    { subject: 'service', attackers: 0, samplesMs: [1, 2, 3], counts: new Map([['200', 3]]) },
  ],
  problems: [],
};

describe('request cost report', () => {
  it('takes the median of the batches as the CPU per request', () => {
    expect(cpuMicrosOfRow(rows[1])).toBe(900);
  });

  it('names a single answer alone', () => {
    expect(answersText(new Map([['401 UNAUTHORIZED', 12]]))).toBe('401 UNAUTHORIZED');
  });

  it('lists mixed answers most frequent first, with their counts', () => {
    expect(
      answersText(
        new Map([
          ['no answer: reset', 1],
          ['401 UNAUTHORIZED', 9],
        ]),
      ),
    ).toBe('401 UNAUTHORIZED ×9, no answer: reset ×1');
  });

  it('compares each row with the plain request of its own server', () => {
    const report = requestCostReport(result);
    expect(report).toMatch(/service\s+hostile\s+401 UNAUTHORIZED\s+800\s+900 µs\s+2\.0x/);
    expect(report).toMatch(/peer\s+hostile\s+400\s+20\s+30,000 µs\s+100\.0x/);
  });

  it('prints each problem on its own marked line', () => {
    expect(
      requestCostReport({ ...result, problems: ['service, hostile: answered 500'] }),
    ).toContain('PROBLEM: service, hostile: answered 500');
  });
});
