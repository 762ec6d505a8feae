import { isTransientConnectionError } from '../database/connection-retry.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import { GroupCommit, type BatchOutcome } from '../database/group-commit.js';
import type { SessionDatabase } from './session-database.js';
import { roundsOf, type StepItem, type StepWritten } from './step-rows.js';
import { writeStepsPostgres } from './step-rows.postgres.js';
import { writeStepsSqlite } from './step-rows.sqlite.js';

/** The most steps per statement (PostgreSQL) or transaction (SQLite). */
const STEP_BATCH = 2_000;

/**
 * Saves finished steps by group commit: the steps of different runs that finish while a batch
 * is being written go together in the next one (on PostgreSQL one statement, on SQLite one
 * transaction), and an idle store writes at once, so a lone run waits for one commit. Each
 * caller's promise settles on its own: a run that lost its lease rejects with `LeaseLostError`
 * and writes nothing, the rest commit. A run's own steps never reorder: its handle sends the
 * next one only once the last is answered, and a batch keeps its items' order.
 */
export class StepWriter {
  private readonly batches = new GroupCommit<StepItem>((items) => this.write(items), STEP_BATCH);

  /**
   * @param at the ISO time of `updated_at` and `created_at` (the store's display clock).
   * @param leaseUntilSql SQL for the end of a lease granted now, on the database's clock.
   */
  constructor(
    private readonly db: SessionDatabase,
    private readonly at: () => string,
    private readonly leaseUntilSql: () => string,
  ) {}

  submit(item: StepItem): Promise<void> {
    return this.batches.submit(item);
  }

  private write(items: readonly StepItem[]): Promise<BatchOutcome<void>[]> {
    return this.db.postgres ? this.writePostgres(items) : this.writeSqlite(items);
  }

  private async writeSqlite(items: readonly StepItem[]): Promise<BatchOutcome<void>[]> {
    const written = await this.db.transaction((manager) =>
      writeStepsSqlite(manager, items, this.at(), this.leaseUntilSql()),
    );
    return items.map((item, i) => outcomeOf(item, written[i]));
  }

  /** One statement per round (each thread once per round), in order; a failed round fails only its own items. */
  private async writePostgres(items: readonly StepItem[]): Promise<BatchOutcome<void>[]> {
    const outcomes: BatchOutcome<void>[] = [];
    const rounds = roundsOf(items.map((item, index) => ({ ...item, index })));
    for (const round of rounds) {
      const answered = await this.writeRound(round);
      round.forEach((item, i) => (outcomes[item.index] = answered[i]));
    }
    return outcomes;
  }

  private async writeRound(round: readonly StepItem[]): Promise<BatchOutcome<void>[]> {
    try {
      const written = await this.db.onConnection((connection, attempt) =>
        writeStepsPostgres(connection, round, this.at(), this.leaseUntilSql(), attempt > 0),
      );
      return round.map((item, i) => outcomeOf(item, written[i]));
    } catch (error) {
      // The database refused the statement (a constraint one step broke): each step alone, so
      // only the step at fault fails. An outage past its deadline fails the whole round.
      if (round.length > 1 && !isTransientConnectionError(error)) {
        return (await Promise.all(round.map((item) => this.writeRound([item])))).flat();
      }
      return round.map(() => ({
        ok: false,
        error: error instanceof Error ? error : new Error(String(error)),
      }));
    }
  }
}

function outcomeOf(
  { target }: StepItem,
  written: StepWritten | Error | undefined,
): BatchOutcome<void> {
  if (written === 'written' || written === 'stored') return { ok: true, value: undefined };
  if (written instanceof Error) return { ok: false, error: written };
  return { ok: false, error: new LeaseLostError(target.threadId, target.runKey) };
}
