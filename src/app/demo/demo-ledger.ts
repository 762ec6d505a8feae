import { sharedTransaction } from 'nest-agent-graceful-shutdown/store';
import type { DataSource, EntityManager } from 'typeorm';
import { StaleFencingTokenError } from './stale-fencing-token.error';

/** One effect the demo tool asks the ledger to record. */
export interface DemoEffect {
  idempotencyKey: string;
  fencingToken: number;
  threadId: string;
  toolCallId: string;
  step: number | null;
  result: string;
}

/** What the ledger did with an effect. */
export interface DemoEffectOutcome {
  /** The result of the one recorded effect of the key (an earlier one's when `duplicate`). */
  result: string;
  /** True when the key already had its effect: nothing new was written. */
  duplicate: boolean;
}

/**
 * The demo tool's real side effect, in the service's own database: each call records its effect
 * once per idempotency key, and a call from a run attempt that lost its lease is refused by its
 * fencing token. One transaction (a) raises the thread's last seen token, refusing a lower one,
 * and (b) records the effect unless its key already has one. The fence row, locked by (a), also
 * serialises (b) for the thread.
 */
export class DemoLedger {
  private readonly postgres: boolean;

  constructor(private readonly dataSource: DataSource) {
    this.postgres = dataSource.options.type === 'postgres';
  }

  /** Records `effect`; throws `StaleFencingTokenError` (nothing written) when its token is stale. */
  record(effect: DemoEffect): Promise<DemoEffectOutcome> {
    return sharedTransaction(this.dataSource, async (manager) => {
      await this.raiseFence(manager, effect.threadId, effect.fencingToken);
      const [found] = (await manager.query(
        `SELECT result FROM demo_tool_effects WHERE idempotency_key = ${this.p(1)}`,
        [effect.idempotencyKey],
      )) as Array<{
        result: string;
      }>;
      if (found) return { result: found.result, duplicate: true };
      await manager.query(
        `INSERT INTO demo_tool_effects (idempotency_key, thread_id, tool_call_id, step, fencing_token, result, recorded_at)
         VALUES (${[1, 2, 3, 4, 5, 6, 7].map((n) => this.p(n)).join(', ')})`,
        [
          effect.idempotencyKey,
          effect.threadId,
          effect.toolCallId,
          effect.step,
          effect.fencingToken,
          effect.result,
          new Date().toISOString(),
        ],
      );
      return { result: effect.result, duplicate: false };
    });
  }

  private async raiseFence(manager: EntityManager, threadId: string, token: number): Promise<void> {
    const raised = (await manager.query(
      `INSERT INTO demo_tool_fences (thread_id, fencing_token) VALUES (${this.p(1)}, ${this.p(2)})
       ON CONFLICT (thread_id) DO UPDATE SET fencing_token = excluded.fencing_token
       WHERE demo_tool_fences.fencing_token <= excluded.fencing_token
       RETURNING fencing_token`,
      [threadId, token],
    )) as unknown[];
    if (raised.length > 0) return;
    const [current] = (await manager.query(
      `SELECT fencing_token FROM demo_tool_fences WHERE thread_id = ${this.p(1)}`,
      [threadId],
    )) as Array<{
      fencing_token: number;
    }>;
    throw new StaleFencingTokenError(threadId, token, Number(current.fencing_token));
  }

  /** The n-th positional parameter in the database's SQL (each statement uses its parameters once, in order). */
  private p(n: number): string {
    return this.postgres ? `$${n}` : '?';
  }
}
