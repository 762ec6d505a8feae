import type { CostRow, LatencyRow } from './request-cost.bench';
import { CLOSED_WHILE_SENDING, type AnswerCounts } from './request-loops';

/** Whether an answer's key (`401 UNAUTHORIZED`, `400`) has the status `expected`. */
const hasStatus = (key: string, expected: number) =>
  key === String(expected) || key.startsWith(`${expected} `);

/** The answers of `counts` other than `expected` (and than a close while sending, where allowed). */
function unexpected(counts: AnswerCounts, expected: number, closedAllowed: boolean): string[] {
  return [...counts.keys()].filter(
    (key) => !hasStatus(key, expected) && !(closedAllowed && key === CLOSED_WHILE_SENDING),
  );
}

/**
 * The failures of section (m): a kind of request answered other than its expected status (a
 * close while sending allowed where the body is refused unread), or never answered it at all,
 * and a user's GET answered other than 200. Timing is never a failure.
 */
export function requestCostProblems(
  rows: readonly CostRow[],
  latency: readonly LatencyRow[],
): string[] {
  const ofRows = rows.flatMap((r) => {
    const wrong = unexpected(r.counts, r.expected, r.refusedUnread).map(
      (key) => `answered ${key} (expected ${r.expected})`,
    );
    const never = [...r.counts.keys()].some((key) => hasStatus(key, r.expected))
      ? []
      : [`never answered ${r.expected}`];
    return [...wrong, ...never].map((problem) => `${r.subject}, ${r.kind}: ${problem}`);
  });
  const ofUser = latency.flatMap((r) =>
    unexpected(r.counts, 200, false).map(
      (key) => `${r.subject}, user GET beside ${r.attackers} attackers: answered ${key}`,
    ),
  );
  return [...ofRows, ...ofUser];
}
