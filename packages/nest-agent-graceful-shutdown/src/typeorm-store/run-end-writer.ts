import { alreadyFinished, writeFinishedRuns } from './finished-run-rows.js';
import { GroupCommit, type BatchOutcome, type FlushReport } from '../database/group-commit.js';
import type { SessionDatabase } from './session-database.js';
import type { FinishRunCommand } from '../contracts/session-store.interface.js';
import { EventLogger } from '../logging/event-logger.js';

/** The most run ends per transaction. */
const FINISH_BATCH = 10_000;

/**
 * Saves run ends by group commit: the ends that arrive while a batch is being written (a
 * shutdown stops thousands of runs at once) go together in the next transaction, and an idle
 * store writes at once. Each caller's promise settles on its own: a run that lost its lease
 * rejects with `LeaseLostError`, the rest commit.
 */
export class RunEndWriter {
  private readonly logger = new EventLogger('SessionStore');
  private readonly batches = new GroupCommit<FinishRunCommand>(
    (commands) => this.write(commands),
    FINISH_BATCH,
    (report) => this.written(report),
  );

  /** @param at the ISO time of `updated_at` and `ended_at` (the store's display clock). */
  constructor(
    private readonly db: SessionDatabase,
    private readonly at: () => string,
  ) {}

  submit(command: FinishRunCommand): Promise<void> {
    return this.batches.submit(command);
  }

  /**
   * One batch in one transaction; a retry after a lost connection first skips the runs an
   * unseen commit already ended. On PostgreSQL a batch with no closing messages (most run ends)
   * is one statement: no BEGIN and COMMIT round trips.
   */
  private write(commands: readonly FinishRunCommand[]): Promise<BatchOutcome<void>[]> {
    const postgres = this.db.postgres;
    const oneStatement =
      postgres && commands.every((command) => !command.closingMessages?.messages.length);
    return (oneStatement ? this.db.statement.bind(this.db) : this.db.transaction.bind(this.db))(
      async (manager, attempt) => {
        const runKeys = commands.map((c) => c.runKey);
        const done =
          attempt > 0 ? await alreadyFinished(manager, postgres, runKeys) : new Set<string>();
        const rest = commands.filter((c) => !done.has(c.runKey));
        const written = rest.length
          ? await writeFinishedRuns(manager, postgres, rest, this.at())
          : [];
        const byKey = new Map(rest.map((command, i) => [command.runKey, written[i]]));
        return commands.map(
          (command): BatchOutcome<void> =>
            byKey.get(command.runKey) ?? { ok: true, value: undefined },
        );
      },
    );
  }

  /** A batch of more than one run end is worth a line: it shows a shutdown's saves grouped. */
  private written({ size, durationMs }: FlushReport): void {
    if (size > 1) this.logger.log('run ends saved', { runs: size, ms: Math.round(durationMs) });
  }
}
