import { EventType, type BaseEvent } from '@ag-ui/core';
import type { RolledBackRun } from '../contracts/session-store.interface.js';

/** The name of the CUSTOM event that opens a run whose request rolled back the run before it. */
export const RUN_ROLLED_BACK_EVENT = 'run_rolled_back';

/**
 * The CUSTOM `run_rolled_back` event a run opens with when its request rolled back the thread's
 * last run (multitask `rollback`): `{runId, removedMessages, effects}`, where `effects` are the
 * rolled-back run's tool calls that ran (`finished`, with their result) or were running when it
 * stopped (`started`, their outcome unknown). The history no longer holds them, but what a tool
 * did outside (a charge, an email) happened: the client can show it.
 */
export function rolledBackEvent(rolledBack: RolledBackRun): BaseEvent {
  const effects = rolledBack.toolCalls
    .filter((call) => call.status === 'finished' || call.status === 'started')
    .map(({ toolCallId, toolName, arguments: args, status, result }) => ({
      toolCallId,
      toolName,
      arguments: args,
      status,
      result,
    }));
  return {
    type: EventType.CUSTOM,
    name: RUN_ROLLED_BACK_EVENT,
    value: { runId: rolledBack.runId, removedMessages: rolledBack.messageIds.length, effects },
  } as BaseEvent;
}
