import { summarize } from './bench-stats';
import { renderTable } from './bench-table';
import type { CostRow, LatencyRow, RequestCostResult } from './request-cost.bench';
import { answered, type AnswerCounts } from './request-loops';

/** The median of a row's per-request server CPU over its batches, in microseconds. */
export const cpuMicrosOfRow = (row: CostRow): number => summarize(row.batchMicros).p50;

/** The answers, most frequent first: `401 UNAUTHORIZED` or `401 UNAUTHORIZED ×9, no answer: … ×1`. */
export function answersText(counts: AnswerCounts): string {
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  return sorted.length === 1 ? sorted[0][0] : sorted.map(([key, n]) => `${key} ×${n}`).join(', ');
}

/** `12.3x` of the subject's baseline row, `1.0x` for the baseline itself. */
function ratioText(row: CostRow, rows: readonly CostRow[]): string {
  const baseline = rows.find((r) => r.subject === row.subject && r.baseline);
  return baseline ? `${(cpuMicrosOfRow(row) / cpuMicrosOfRow(baseline)).toFixed(1)}x` : '–';
}

function costTable(rows: readonly CostRow[]): string {
  return renderTable(
    [
      { heading: 'server' },
      { heading: 'request' },
      { heading: 'answered' },
      { heading: 'requests', align: 'right' },
      { heading: 'server CPU per request', align: 'right' },
      { heading: 'vs plain, no token', align: 'right' },
    ],
    rows.map((r) => [
      r.subject,
      r.kind,
      answersText(r.counts),
      String(answered(r.counts)),
      `${Math.round(cpuMicrosOfRow(r)).toLocaleString('en-US')} µs`,
      ratioText(r, rows),
    ]),
  );
}

function latencyTable(rows: readonly LatencyRow[]): string {
  return renderTable(
    [
      { heading: 'server' },
      { heading: 'attackers', align: 'right' },
      { heading: 'user GETs', align: 'right' },
      { heading: 'p50', align: 'right' },
      { heading: 'p95', align: 'right' },
      { heading: 'attack requests/s', align: 'right' },
      { heading: 'attackers answered' },
    ],
    rows.map((r) => {
      const { p50, p95 } = summarize(r.samplesMs);
      return [
        r.subject,
        String(r.attackers),
        String(r.samplesMs.length),
        `${p50.toFixed(1)} ms`,
        `${p95.toFixed(1)} ms`,
        r.attack ? r.attack.perSecond.toFixed(0) : '–',
        r.attack ? answersText(r.attack.counts) : '–',
      ];
    }),
  );
}

/** Both tables of section (m), what was measured, and any answer other than expected. */
export function requestCostReport(result: RequestCostResult): string {
  const { options: o, rows, latency, problems } = result;
  return [
    `(m) request cost before authentication: the built service, and a peer with Nest's defaults (a JSON`,
    `    body parser of 1 MB before a guard that checks the token); server CPU per request (utime + stime`,
    `    of every thread, /proc/<pid>/stat) over ${o.batches} batches of ${o.batchMs / 1000} s per kind, interleaved, after ${o.warmupRounds} rounds`,
    `    of ${o.warmupMs / 1000} s per kind of warm-up; ${o.clients} clients, a new connection per request; median of the batches`,
    '',
    costTable(rows),
    '',
    `a user's authenticated GET /v1/threads, one at a time for ${o.latencyWindowMs / 1000} s, alone and while ${o.attackers} clients send the`,
    `gzip of 500,000 '[' without a token in a loop`,
    '',
    latencyTable(latency),
    ...(problems.length ? ['', ...problems.map((p) => `PROBLEM: ${p}`)] : []),
  ].join('\n');
}
