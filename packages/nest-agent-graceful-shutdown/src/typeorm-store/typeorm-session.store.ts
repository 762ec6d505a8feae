import { IsNull, MoreThan, type DataSource } from 'typeorm';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../database/connection-retry.js';
import { recordCrash } from './crash-recovery.js';
import { MessageEntity } from './entities/message.entity.js';
import { RunEntity } from './entities/run.entity.js';
import { ThreadEntity } from './entities/thread.entity.js';
import {
  crashCandidates,
  leaseExpired,
  renewLeaseRows,
  renewLeaseRowsSkippingLocked,
} from './lease-rows.js';
import type {
  RunRecord,
  StoredMessage,
  ThreadRecord,
  ThreadStatus,
  ToolCallRecord,
} from '../contracts/session-records.js';
import { RunEndWriter } from './run-end-writer.js';
import { writeRunStart } from './run-start-rows.js';
import { startRunInOneStatement, startsInOneStatement } from './run-start.postgres.js';
import { writeApprovalCancel } from './approval-cancel-rows.js';
import { writeRunRollback } from './run-rollback-rows.js';
import {
  findQueuedRows,
  findStartableQueueRows,
  writeEnqueue,
  writeQueueCancel,
} from './run-queue-rows.js';
import { toRunRecord, toStoredMessage, toThreadRecord } from './session-rows.js';
import { understandsFormat, understoodFormatWhere } from './record-format.js';
import {
  ThreadBusyError,
  type CancelApprovalCommand,
  type EnqueueRunCommand,
  type QueuedRun,
  type RollbackRunCommand,
  type RolledBackRun,
  type CheckpointTarget,
  type FinishRunCommand,
  type SessionStore,
  type StartedRun,
  type StartRunCommand,
} from '../contracts/session-store.interface.js';
import type { ThreadListPage, ThreadListQuery } from '../contracts/thread-list.js';
import type { MessagePage, MessagePageQuery } from '../contracts/message-page.js';
import { findThreadPage } from './thread-list-rows.js';
import { findToolCallRows } from './tool-call-rows.js';
import type { StepCommit } from '../contracts/step-commit.js';
import { StepWriter } from './step-writer.js';
import { SessionDatabase } from './session-database.js';
import { TypeOrmRunEventLog } from './typeorm-run-event-log.js';
import {
  PostgresSignalBus,
  type PostgresSignalBusOptions,
} from '../postgres-signals/postgres-signal-bus.js';
import type { LogNudges } from '../postgres-signals/log-nudges.js';

/** Options of the TypeORM session store. */
export interface TypeOrmSessionStoreOptions {
  /** How long a run's lease lasts without renewal, in milliseconds. @default 15000 */
  leaseTtlMs?: number;
  /**
   * The clock of the timestamps shown to users (`createdAt`, `startedAt`, `interruptedAt`…), in
   * epoch milliseconds; tests inject one. Leases never read it: their expiry is written and
   * judged on the database's clock, so an instance whose clock drifted cannot fake a death.
   * @default Date.now
   */
  now?: () => number;
  /** How writes retry through a database outage. @default 30 s deadline, 100 ms to 2 s pauses */
  retry?: RetryPolicy;
}

const UNIQUE_VIOLATION = '23505';
const RENEW_CHUNK = 500;

/** The session store on TypeORM: embedded SQLite (better-sqlite3) or PostgreSQL. */
export class TypeOrmSessionStore implements SessionStore {
  private readonly db: SessionDatabase;
  private readonly leaseTtlMs: number;
  private readonly clock: () => number;
  /** Runs that end together (a shutdown stops thousands at once) are saved in one transaction. */
  private readonly runEnds: RunEndWriter;
  /** Steps that finish together (many runs at once) are saved in one statement or transaction. */
  private readonly steps: StepWriter;

  /**
   * @param source the data source, or a function that returns it once it is initialized
   * (the module resolves it lazily because TypeORM connects asynchronously).
   */
  constructor(source: DataSource | (() => DataSource), options: TypeOrmSessionStoreOptions = {}) {
    this.db = new SessionDatabase(source, options.retry ?? DEFAULT_RETRY_POLICY);
    this.leaseTtlMs = options.leaseTtlMs ?? 15_000;
    this.clock = options.now ?? Date.now;
    this.runEnds = new RunEndWriter(this.db, () => this.at());
    this.steps = new StepWriter(
      this.db,
      () => this.at(),
      () => this.leaseUntilSql(),
    );
  }

  async findThread(threadId: string): Promise<ThreadRecord | null> {
    const read = await this.db.readThread(threadId);
    let thread = read?.thread ?? null;
    // A thread a newer release wrote is reported as it is: repairing it is that release's job.
    if (read && understandsFormat(read.thread) && leaseExpired(read.thread, read.now)) {
      // A row another transaction holds is being written (a checkpoint renews its lease): leave it.
      await this.db.transaction(async (manager) => {
        const locked = await this.db.lockThreadIfFree(manager, threadId);
        if (locked && leaseExpired(locked, await this.db.now(manager)))
          await recordCrash(manager, locked, this.at());
      });
      thread = await this.dataSource.getRepository(ThreadEntity).findOneBy({ threadId });
    }
    if (!thread) return null;
    const lastRun = thread.lastRunKey
      ? await this.dataSource.getRepository(RunEntity).findOneBy({ key: thread.lastRunKey })
      : null;
    return toThreadRecord(thread, lastRun);
  }

  async loadMessages(threadId: string): Promise<StoredMessage[]> {
    const rows = await this.dataSource
      .getRepository(MessageEntity)
      .find({ where: { threadId }, order: { seq: 'ASC' } });
    return rows.map(toStoredMessage);
  }

  async loadMessagePage(query: MessagePageQuery): Promise<MessagePage> {
    const { threadId, limit, afterSeq } = query;
    // One row past the page says whether another page follows.
    const rows = await this.dataSource.getRepository(MessageEntity).find({
      where: afterSeq === undefined ? { threadId } : { threadId, seq: MoreThan(afterSeq) },
      order: { seq: 'ASC' },
      take: limit + 1,
    });
    const messages = rows.slice(0, limit).map(toStoredMessage);
    return {
      messages,
      nextAfterSeq: rows.length > limit ? messages[messages.length - 1].seq : null,
    };
  }

  async startRun(command: StartRunCommand): Promise<StartedRun> {
    try {
      // The usual start on PostgreSQL is one statement; one it cannot make goes through the transaction, which says why.
      if (this.db.postgres && startsInOneStatement(command)) {
        const started = await this.db.statement((manager, attempt) =>
          startRunInOneStatement(manager, command, this.at(), this.leaseUntilSql(), attempt),
        );
        if (started) return started;
      }
      return await this.db.transaction((manager) =>
        writeRunStart(this.db, manager, command, this.at(), this.leaseUntilSql()),
      );
    } catch (error) {
      // Two instances creating the same new thread at once: the second one is busy.
      if ((error as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION) {
        throw new ThreadBusyError(`thread ${command.threadId} was started concurrently`);
      }
      throw error;
    }
  }

  /** One write per step, group-committed with the steps of other runs (see `StepWriter`). */
  commitStep(target: CheckpointTarget, step: StepCommit): Promise<void> {
    return this.steps.submit({ target, step });
  }

  appendMessages(target: CheckpointTarget, messages: readonly AgentMessage[]): Promise<void> {
    return this.commitStep(target, { messages });
  }

  recordToolCallStarted(target: CheckpointTarget, call: ToolCall): Promise<void> {
    return this.commitStep(target, { startedCalls: [call] });
  }

  saveRunState(target: CheckpointTarget, state: unknown): Promise<void> {
    return this.commitStep(target, { state: state ?? null });
  }

  findToolCalls(threadId: string, toolCallIds: readonly string[]): Promise<ToolCallRecord[]> {
    // A resumed run asks before it runs a pending call: a database restart must not fail it.
    return this.db.readThrough((manager) => findToolCallRows(manager, threadId, toolCallIds));
  }

  finishRun(command: FinishRunCommand): Promise<void> {
    return this.runEnds.submit(command);
  }

  /** See `SessionStore.cancelApproval`. */
  cancelApproval(command: CancelApprovalCommand): Promise<boolean> {
    return this.db.transaction((manager) =>
      writeApprovalCancel(this.db, manager, command, this.at()),
    );
  }

  /** See `SessionStore.rollbackRun`. */
  rollbackRun(command: RollbackRunCommand): Promise<RolledBackRun | null> {
    return this.db.transaction((manager) => writeRunRollback(this.db, manager, command, this.at()));
  }

  /** See `SessionStore.enqueueRun`. */
  enqueueRun(command: EnqueueRunCommand): Promise<QueuedRun | null> {
    return this.db.transaction((manager) => writeEnqueue(this.db, manager, command, this.at()));
  }

  /** See `SessionStore.findQueuedRuns`. */
  findQueuedRuns(threadId: string): Promise<QueuedRun[]> {
    return findQueuedRows(this.dataSource.manager, threadId);
  }

  /** See `SessionStore.cancelQueuedRun`. */
  cancelQueuedRun(threadId: string, runId: string): Promise<boolean> {
    return this.db.transaction((manager) => writeQueueCancel(this.db, manager, threadId, runId));
  }

  /** See `SessionStore.findStartableQueues`. */
  findStartableQueues(limit: number): Promise<string[]> {
    return findStartableQueueRows(this.dataSource.manager, limit);
  }

  /** Renews on a path checkpoints cannot starve (see `SessionDatabase.renewal`). */
  async renewLeases(instanceId: string, runKeys: readonly string[]): Promise<string[]> {
    const lost: string[] = [];
    for (let i = 0; i < runKeys.length; i += RENEW_CHUNK) {
      const chunk = runKeys.slice(i, i + RENEW_CHUNK);
      const kept = await this.db.renewal((manager) =>
        this.db.postgres
          ? renewLeaseRowsSkippingLocked(
              manager,
              this.db.threadTable,
              instanceId,
              chunk,
              this.leaseUntilSql(),
            )
          : renewLeaseRows(manager, instanceId, chunk, this.leaseUntilSql()),
      );
      lost.push(...chunk.filter((key) => !kept.has(key)));
    }
    return lost;
  }

  async findRun(threadId: string, runId: string): Promise<RunRecord | null> {
    // The thread points at its latest attempt; start times alone can tie within a millisecond.
    const thread = await this.dataSource.getRepository(ThreadEntity).findOne({
      select: { threadId: true, lastRunKey: true, activeRunId: true },
      where: { threadId },
    });
    const runs = this.dataSource.getRepository(RunEntity);
    const latest = thread?.lastRunKey ? await runs.findOneBy({ key: thread.lastRunKey }) : null;
    if (latest?.runId === runId) return toRunRecord(latest);
    const row = await runs.findOne({ where: { threadId, runId }, order: { startedAt: 'DESC' } });
    return row ? toRunRecord(row) : null;
  }

  async recoverCrashedRuns(
    options: { exclusiveInstanceId?: string; exceptRunKeys?: readonly string[] } = {},
  ): Promise<number> {
    const { exclusiveInstanceId } = options;
    let recovered = 0;
    for (const threadId of await crashCandidates(
      this.dataSource.manager,
      this.db.clockSql(),
      options,
    )) {
      recovered += await this.db.transaction(async (manager) => {
        // A row another transaction holds is skipped, not waited for: the next sweep sees it again.
        const thread = await this.db.lockThreadIfFree(manager, threadId);
        const takenOver =
          exclusiveInstanceId !== undefined && thread?.leaseOwner !== exclusiveInstanceId;
        if (
          !thread?.activeRunId ||
          !understandsFormat(thread) ||
          !(takenOver || leaseExpired(thread, await this.db.now(manager)))
        )
          return 0;
        await recordCrash(manager, thread, this.at());
        return 1;
      });
    }
    return recovered;
  }

  async findInterruptedThreads(limit: number): Promise<string[]> {
    const rows = await this.dataSource.getRepository(ThreadEntity).find({
      select: { threadId: true },
      where: {
        status: 'interrupted' satisfies ThreadStatus,
        activeRunId: IsNull(),
        ...understoodFormatWhere,
      },
      order: { updatedAt: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.threadId);
  }

  async listThreads(query: ThreadListQuery): Promise<ThreadListPage> {
    return findThreadPage(this.dataSource.manager, query, await this.db.now());
  }

  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  isExclusive(): boolean {
    return this.db.embedded;
  }

  /** Closes the lease renewal connection (PostgreSQL); the data source stays its owner's. */
  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
  }

  /** The PostgreSQL signal bus on this store's database (`signals.postgres`); it connects at `connect()`. */
  createPostgresSignalBus(settings: PostgresSignalBusOptions = {}): PostgresSignalBus {
    return new PostgresSignalBus(() => this.db.dataSource, settings);
  }

  /** A run event log in the same database, sharing its write queue on SQLite (the default log without Redis). */
  createRunEventLog(nudges?: LogNudges): TypeOrmRunEventLog {
    return new TypeOrmRunEventLog(() => this.db.dataSource, this.clock, nudges);
  }

  /** The injected clock's time, as ISO text: for timestamps shown to users, never for leases. */
  private at(): string {
    return new Date(this.clock()).toISOString();
  }

  /** SQL for the end of a lease granted now, on the database's clock. */
  private leaseUntilSql(): string {
    return this.db.clockSql(this.leaseTtlMs);
  }

  private get dataSource(): DataSource {
    return this.db.dataSource;
  }
}
