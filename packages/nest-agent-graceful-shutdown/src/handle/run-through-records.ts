import { abortable, CallAbortedError } from '../agent/abortable.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { ToolCallRecord } from '../contracts/session-records.js';
import type { RunHandle, ToolCallResult } from './run-handle.interface.js';

/** What running a tool call through its record needs of the run. */
export interface ToolRunHost extends Pick<
  RunHandle,
  | 'toolResult'
  | 'signal'
  | 'beforeActing'
  | 'stopped'
  | 'toolStarted'
  | 'toolFinished'
  | 'toolOutcomeUnknown'
> {
  /** The record an earlier attempt left of a call this run did not ask for itself. */
  earlierRecord(call: ToolCall): Promise<ToolCallRecord | undefined>;
  /** Answers the call with a result known already (no post-acting hooks: nothing ran). */
  answerKnown(call: ToolCall, content: string): Promise<AgentMessage>;
  /** The call's result is in the history already. */
  acknowledge(callId: string): void;
  isIdempotent(toolName: string): boolean;
  /** The run stops without waiting for the call's `work`, which may still be running (its tool ignores the abort). */
  leftRunning(call: ToolCall, work: Promise<unknown>): void;
}

/**
 * One tool call through its record. A call answered in the history, or with a finished
 * execution record, gets that result and does not run; one that may have run before a stop
 * and is not idempotent is answered as of unknown outcome; any other passes the pre-acting
 * safe point, is recorded as started, runs with the run's signal and is checkpointed.
 */
export async function runThroughRecords(
  host: ToolRunHost,
  call: ToolCall,
  execute: (signal: AbortSignal) => Promise<string>,
): Promise<ToolCallResult> {
  const known = await knownResult(host, call);
  if (known) return known;
  const point = await host.beforeActing(call);
  if (point.stop) throw host.stopped(point);
  await host.toolStarted(call);
  let content: string;
  const work = execute(host.signal);
  try {
    content = await abortable(work, host.signal);
  } catch (error) {
    if (error instanceof CallAbortedError || host.signal.aborted) {
      host.leftRunning(call, work);
      throw error;
    }
    // The model is told of the failure; the record says it ran, so it is not run again.
    await host.toolFinished(
      call,
      `error: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw error;
  }
  const message = await host.toolFinished(call, content);
  return { content, source: 'executed', messageId: message.id };
}

async function knownResult(host: ToolRunHost, call: ToolCall): Promise<ToolCallResult | undefined> {
  const answered = host.toolResult(call.id);
  if (answered) {
    host.acknowledge(call.id);
    return { content: answered.content, source: 'recorded', messageId: answered.id };
  }
  const record = await host.earlierRecord(call);
  if (!record) return undefined;
  if (record.status === 'finished') {
    const message = await host.answerKnown(call, record.result ?? '');
    return { content: message.content, source: 'recorded', messageId: message.id };
  }
  if (host.isIdempotent(call.name)) return undefined;
  const message = await host.toolOutcomeUnknown(call);
  return { content: message.content, source: 'outcome_unknown', messageId: message.id };
}
