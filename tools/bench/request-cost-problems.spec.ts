import type { CostRow, LatencyRow } from './request-cost.bench';
import { requestCostProblems } from './request-cost-problems';
import { CLOSED_WHILE_SENDING } from './request-loops';

function row(answers: [string, number][], refusedUnread = true): CostRow {
  return {
    subject: 'service',
    kind: 'hostile',
    expected: 401,
    baseline: false,
    refusedUnread,
    counts: new Map(answers),
    batchMicros: [400],
  };
}

const user = (answers: [string, number][]): LatencyRow => ({
  subject: 'peer',
  attackers: 4,
  samplesMs: [1],
  counts: new Map(answers),
});

describe('request cost problems', () => {
  it('finds none when every request got its expected status', () => {
    expect(requestCostProblems([row([['401 UNAUTHORIZED', 10]])], [user([['200', 5]])])).toEqual(
      [],
    );
  });

  it('allows a close while sending where the body is refused unread', () => {
    expect(
      requestCostProblems(
        [
          row([
            ['401 UNAUTHORIZED', 10],
            [CLOSED_WHILE_SENDING, 1],
          ]),
        ],
        [],
      ),
    ).toEqual([]);
  });

  it('counts a close while sending against a body that must be read', () => {
    expect(
      requestCostProblems(
        [
          row(
            [
              ['401 UNAUTHORIZED', 10],
              [CLOSED_WHILE_SENDING, 1],
            ],
            false,
          ),
        ],
        [],
      ),
    ).toEqual(['service, hostile: answered closed while sending (expected 401)']);
  });

  it('names another status and a kind never answered as expected', () => {
    expect(requestCostProblems([row([['400', 3]])], [])).toEqual([
      'service, hostile: answered 400 (expected 401)',
      'service, hostile: never answered 401',
    ]);
  });

  it('names a user GET that was not answered 200', () => {
    expect(
      requestCostProblems(
        [],
        [
          user([
            ['200', 5],
            ['503 SHUTTING_DOWN', 1],
          ]),
        ],
      ),
    ).toEqual(['peer, user GET beside 4 attackers: answered 503 SHUTTING_DOWN']);
  });
});
