import type { EntityManager } from 'typeorm';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import { RunEntity } from './entities/run.entity.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { unfinishedToolCalls } from './tool-call-rows.js';

/**
 * Records the active run of `thread` as interrupted by a crash: the run ends `interrupted`,
 * the thread reads `interrupted` with a `crash` marker (phase and iteration of its last
 * checkpoint, the tool calls it had started) and its lease is released.
 * Call inside a transaction that holds the thread's row.
 */
export async function recordCrash(
  manager: EntityManager,
  thread: ThreadEntity,
  at: string,
): Promise<void> {
  const run = thread.lastRunKey
    ? await manager.getRepository(RunEntity).findOneBy({ key: thread.lastRunKey })
    : null;
  const started = run ? await unfinishedToolCalls(manager, run.key) : [];
  const marker: InterruptedState = {
    reason: 'crash',
    interruptedAt: at,
    runId: thread.activeRunId ?? run?.runId ?? 'unknown',
    phase: (run?.phase as InterruptedState['phase'] | null) ?? 'reasoning',
    iteration: run?.iteration ?? 0,
    pendingToolCalls: started.map((call) => ({
      id: call.toolCallId,
      name: call.toolName,
      arguments: call.arguments,
      started: true,
    })),
    ...(run?.agentVersion ? { agentVersion: run.agentVersion } : {}),
    ...(run?.agentFingerprint ? { agentFingerprint: run.agentFingerprint } : {}),
  };
  if (run) {
    await manager.getRepository(RunEntity).update(
      { key: run.key },
      {
        status: 'interrupted',
        stopReason: 'interrupted',
        errorCode: 'INSTANCE_LOST',
        errorMessage: 'the instance running this run stopped without saving it',
        endedAt: at,
      },
    );
  }
  await manager
    .getRepository(ThreadEntity)
    .update(
      thread.lastRunKey
        ? { threadId: thread.threadId, lastRunKey: thread.lastRunKey }
        : { threadId: thread.threadId },
      {
        status: 'interrupted',
        activeRunId: null,
        interrupt: JSON.stringify(marker),
        leaseOwner: null,
        leaseExpiresAt: null,
        updatedAt: at,
      },
    );
}
