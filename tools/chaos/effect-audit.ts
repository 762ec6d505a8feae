import type { ExecutionLedger } from '../rolling/execution-ledger';
import type { StoreSnapshot } from './store-snapshot';

/** The demo tool's effects, counted by idempotency key. */
export interface EffectAudit {
  /** Effects the ledger table holds. */
  effects: number;
  /** Keys with two effects or more: in the ledger table, or reported made by the instances' logs. */
  duplicated: string[];
  /** Late effects refused by their fencing token (allowed: a paused or partitioned attempt woke up). */
  refused: number;
}

/**
 * Counts effects by idempotency key, from the ledger table (what was written) and from the
 * instances' `demo tool finished` lines that report a new effect (what each execution did):
 * one key with two effects is a tool call whose effect happened twice.
 */
export function auditEffects(store: StoreSnapshot, ledger: ExecutionLedger): EffectAudit {
  const duplicated: string[] = [];
  const count = (
    keys: Iterable<{ idempotencyKey: string; threadId: string; toolCallId: string }>,
    where: string,
  ) => {
    const byKey = new Map<string, { label: string; n: number }>();
    for (const e of keys) {
      const entry = byKey.get(e.idempotencyKey) ?? {
        label: `${e.threadId} call ${e.toolCallId}`,
        n: 0,
      };
      entry.n++;
      byKey.set(e.idempotencyKey, entry);
    }
    for (const { label, n } of byKey.values())
      if (n > 1) duplicated.push(`${label}: ${n} effects ${where}`);
  };
  count(store.effects, 'in the ledger table');
  count(ledger.effects, 'reported by the instances');
  return { effects: store.effects.length, duplicated, refused: ledger.refusals };
}
