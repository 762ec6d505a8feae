import type { DataSource, EntityManager } from 'typeorm';
import type { AgentMessage } from '../agent/agent-message';
import { ThreadAccessDeniedError } from '../errors/thread-access-denied.error';
import type { InterruptedState } from '../shutdown/interrupted-state';
import { MessageEntity } from './entities/message.entity';
import { RunEntity } from './entities/run.entity';
import { ThreadEntity } from './entities/thread.entity';
import type { RunRecord, StoredMessage, ThreadRecord, ThreadStatus } from './session-records';
import { insertMessages, toRunRecord, toStoredMessage, toThreadRecord } from './session-rows';
import {
  ThreadBusyError,
  type CheckpointTarget,
  type FinishRunCommand,
  type SessionStore,
  type StartRunCommand,
} from './session-store.interface';
import { WriteQueue } from './write-queue';

const now = () => new Date().toISOString();

/** The session store on TypeORM: embedded SQLite (better-sqlite3) or PostgreSQL. */
export class TypeOrmSessionStore implements SessionStore {
  private resolved?: { dataSource: DataSource; queue?: WriteQueue };

  /**
   * @param source the data source, or a function that returns it once it is initialized
   * (the module resolves it lazily because TypeORM connects asynchronously).
   */
  constructor(private readonly source: DataSource | (() => DataSource)) {}

  private get dataSource(): DataSource {
    return this.connection().dataSource;
  }

  private connection(): { dataSource: DataSource; queue?: WriteQueue } {
    if (!this.resolved) {
      const dataSource = typeof this.source === 'function' ? this.source() : this.source;
      const type = dataSource.options.type;
      this.resolved = { dataSource, queue: type === 'better-sqlite3' || type === 'sqlite' ? new WriteQueue() : undefined };
    }
    return this.resolved;
  }

  async findThread(threadId: string): Promise<ThreadRecord | null> {
    const thread = await this.dataSource.getRepository(ThreadEntity).findOneBy({ threadId });
    if (!thread) return null;
    const lastRun = thread.lastRunKey
      ? await this.dataSource.getRepository(RunEntity).findOneBy({ key: thread.lastRunKey })
      : null;
    return toThreadRecord(thread, lastRun);
  }

  async loadMessages(threadId: string): Promise<StoredMessage[]> {
    const rows = await this.dataSource.getRepository(MessageEntity).find({ where: { threadId }, order: { seq: 'ASC' } });
    return rows.map(toStoredMessage);
  }

  startRun(command: StartRunCommand): Promise<void> {
    return this.transaction(async (manager) => {
      const threads = manager.getRepository(ThreadEntity);
      const at = now();
      let thread = await threads.findOneBy({ threadId: command.threadId });
      if (thread && thread.ownerId !== command.ownerId) throw new ThreadAccessDeniedError(command.threadId);
      if (thread?.activeRunId) throw new ThreadBusyError(`thread ${command.threadId} already runs ${thread.activeRunId}`);
      thread ??= threads.create({
        threadId: command.threadId,
        ownerId: command.ownerId,
        messageCount: 0,
        interrupt: null,
        createdAt: at,
      });
      await manager.getRepository(RunEntity).insert({
        key: command.runKey,
        threadId: command.threadId,
        runId: command.runId,
        status: 'running',
        stopReason: null,
        errorCode: null,
        errorMessage: null,
        iteration: 0,
        phase: null,
        instanceId: command.instanceId,
        startedAt: at,
        endedAt: null,
      });
      await insertMessages(manager, command.threadId, thread.messageCount, command.runId, command.messages, at);
      thread.messageCount += command.messages.length;
      thread.status = 'running' satisfies ThreadStatus;
      thread.activeRunId = command.runId;
      thread.lastRunKey = command.runKey;
      thread.updatedAt = at;
      await threads.save(thread);
    });
  }

  appendMessages(target: CheckpointTarget, messages: readonly AgentMessage[]): Promise<void> {
    return this.transaction(async (manager) => {
      const at = now();
      const thread = await manager
        .getRepository(ThreadEntity)
        .findOne({ select: { threadId: true, messageCount: true }, where: { threadId: target.threadId } });
      if (!thread) throw new Error(`thread ${target.threadId} does not exist`);
      await insertMessages(manager, target.threadId, thread.messageCount, target.runId, messages, at);
      await manager
        .getRepository(ThreadEntity)
        .update({ threadId: target.threadId }, { messageCount: thread.messageCount + messages.length, updatedAt: at });
      await manager
        .getRepository(RunEntity)
        .update({ key: target.runKey }, { iteration: target.iteration, phase: target.phase });
    });
  }

  finishRun(command: FinishRunCommand): Promise<void> {
    return this.transaction(async (manager) => {
      const at = now();
      await manager.getRepository(RunEntity).update(
        { key: command.runKey },
        {
          status: command.status,
          stopReason: command.stopReason,
          errorCode: command.errorCode ?? null,
          errorMessage: command.errorMessage ?? null,
          iteration: command.iteration,
          phase: command.phase,
          endedAt: at,
        },
      );
      const status: ThreadStatus = command.interrupt
        ? command.interrupt.reason === 'approval'
          ? 'awaiting_approval'
          : 'interrupted'
        : 'idle';
      await manager.getRepository(ThreadEntity).update(
        { threadId: command.threadId },
        {
          status,
          activeRunId: null,
          interrupt: command.interrupt ? JSON.stringify(command.interrupt) : null,
          updatedAt: at,
        },
      );
    });
  }

  async findRun(threadId: string, runId: string): Promise<RunRecord | null> {
    // The thread points at its latest attempt; start times alone can tie within a millisecond.
    const thread = await this.dataSource
      .getRepository(ThreadEntity)
      .findOne({ select: { threadId: true, lastRunKey: true, activeRunId: true }, where: { threadId } });
    const runs = this.dataSource.getRepository(RunEntity);
    const latest = thread?.lastRunKey ? await runs.findOneBy({ key: thread.lastRunKey }) : null;
    if (latest?.runId === runId) return toRunRecord(latest);
    const row = await runs.findOne({ where: { threadId, runId }, order: { startedAt: 'DESC' } });
    return row ? toRunRecord(row) : null;
  }

  recoverOrphanedRuns(isOrphan: (run: RunRecord) => boolean): Promise<number> {
    return this.transaction(async (manager) => {
      const running = await manager.getRepository(RunEntity).findBy({ status: 'running' });
      const orphans = running.map(toRunRecord).filter(isOrphan);
      const at = now();
      for (const run of orphans) {
        const marker: InterruptedState = {
          reason: 'crash',
          interruptedAt: at,
          runId: run.runId,
          phase: run.phase ?? 'reasoning',
          iteration: run.iteration,
          pendingToolCalls: [],
        };
        await manager
          .getRepository(RunEntity)
          .update({ key: run.key }, { status: 'interrupted', stopReason: 'interrupted', endedAt: at });
        await manager
          .getRepository(ThreadEntity)
          .update(
            { threadId: run.threadId, activeRunId: run.runId },
            { status: 'interrupted', activeRunId: null, interrupt: JSON.stringify(marker), updatedAt: at },
          );
      }
      return orphans.length;
    });
  }

  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  private transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { dataSource, queue } = this.connection();
    const run = () => dataSource.transaction(work);
    return queue ? queue.run(run) : run();
  }
}
