import { ExecutionLedger } from '../rolling/execution-ledger';
import { auditChaos, auditProblems } from './chaos-audit';
import type { ChaosUser, TurnRecord } from './chaos-user';
import type { RecordedRequest } from './request-record';
import type { StoreSnapshot } from './store-snapshot';

/** What the audit reads of a user, for one thread `t-1` with turns `turns`. */
function user(turns: TurnRecord[], requests: Partial<RecordedRequest>[] = []): ChaosUser {
  return {
    name: 'user-1',
    threadId: 't-1',
    turns,
    sentMessageIds: turns.map((t) => t.messageId),
    finishedMessageIds: new Set<string>(),
    requests: requests.map((r) => ({
      user: 'user-1',
      turn: 1,
      method: 'POST',
      path: '/v1/runs',
      atMs: 0,
      ...r,
    })),
    runErrors: new Map<string, number>(),
  } as unknown as ChaosUser;
}

const completed: TurnRecord = { turn: 1, messageId: 'm-1', outcome: 'completed' };

function store(messages: Partial<StoreSnapshot['messages'][number]>[]): StoreSnapshot {
  return {
    threads: [{ threadId: 't-1', status: 'idle', marked: false }],
    messages: messages.map((m) => ({
      threadId: 't-1',
      messageId: 'x',
      role: 'user',
      toolCallId: null,
      toolCalls: [],
      createdAt: 1_000,
      ...m,
    })),
    runsRunning: [],
    effects: [],
  };
}

describe('auditChaos', () => {
  it('holds for a turn stored whole', () => {
    expect(
      auditProblems(
        auditChaos([user([completed])], store([{ messageId: 'm-1' }]), new ExecutionLedger(), []),
      ),
    ).toEqual([]);
  });

  it('reports a sent message that is not stored as lost', () => {
    expect(
      auditChaos([user([completed])], store([]), new ExecutionLedger(), []).messagesLost,
    ).toEqual(['t-1/m-1']);
  });

  it('allows a 503 with Retry-After and a gateway error of a turn that ended, not a 500', () => {
    const audit = auditChaos(
      [user([completed], [{ status: 503, retryAfter: '1' }, { status: 502 }, { status: 500 }])],
      store([{ messageId: 'm-1' }]),
      new ExecutionLedger(),
      [],
    );
    expect([audit.retried5xx, audit.unexplained5xx.length]).toEqual([2, 1]);
  });

  it('reports a tool call started again after its result was saved', () => {
    const ledger = new ExecutionLedger();
    const line = (time: number) =>
      JSON.stringify({
        msg: 'demo tool started',
        context: 'DemoTool',
        threadId: 't-1',
        toolCallId: 'c-1',
        step: 1,
        time,
      });
    ledger.reader('old-1')(line(500));
    ledger.reader('new-1')(line(2_000));
    const audit = auditChaos(
      [user([completed])],
      store([
        { messageId: 'm-1' },
        { messageId: 'r-1', role: 'tool', toolCallId: 'c-1', createdAt: 1_000 },
      ]),
      ledger,
      [],
    );
    expect(audit.toolExecutionsDuplicated).toEqual([
      't-1 call c-1 started 1000 ms after its result was saved',
    ]);
  });

  it('reports two effects with one idempotency key, from the ledger table or the instances, and allows refused late effects', () => {
    const ledger = new ExecutionLedger();
    const finished = (instance: string, token: number) =>
      ledger.reader(instance)(
        JSON.stringify({
          msg: 'demo tool finished',
          context: 'DemoTool',
          threadId: 't-1',
          toolCallId: 'c-1',
          idempotencyKey: 'k-1',
          fencingToken: token,
          duplicate: false,
        }),
      );
    finished('old-1', 1);
    finished('new-1', 2);
    ledger.reader('old-1')(
      JSON.stringify({
        msg: 'demo tool effect refused',
        context: 'DemoTool',
        threadId: 't-1',
        toolCallId: 'c-2',
      }),
    );
    const snapshot = store([{ messageId: 'm-1' }]);
    snapshot.effects = [
      { threadId: 't-1', toolCallId: 'c-1', idempotencyKey: 'k-1', fencingToken: 2 },
    ];

    const audit = auditChaos([user([completed])], snapshot, ledger, []);

    expect(audit.toolEffects).toEqual({
      effects: 1,
      duplicated: ['t-1 call c-1: 2 effects reported by the instances'],
      refused: 1,
    });
    expect(auditProblems(audit)).toEqual([expect.stringContaining('tool effects duplicated')]);
  });

  it('holds for one effect per key, a second execution of the same key finding it recorded', () => {
    const ledger = new ExecutionLedger();
    const finished = (duplicate: boolean) =>
      ledger.reader('new-1')(
        JSON.stringify({
          msg: 'demo tool finished',
          context: 'DemoTool',
          threadId: 't-1',
          toolCallId: 'c-1',
          idempotencyKey: 'k-1',
          fencingToken: 2,
          duplicate,
        }),
      );
    finished(false);
    finished(true);
    const snapshot = store([{ messageId: 'm-1' }]);
    snapshot.effects = [
      { threadId: 't-1', toolCallId: 'c-1', idempotencyKey: 'k-1', fencingToken: 2 },
    ];

    expect(auditChaos([user([completed])], snapshot, ledger, []).toolEffects.duplicated).toEqual(
      [],
    );
  });
});
