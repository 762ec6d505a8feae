import { MULTITASK_STRATEGIES, type RunReplacement } from '../agent/multitask.js';
import type { CancelSignal, RunEndedSignal } from '../contracts/signal-bus.interface.js';

/**
 * The JSON payloads of cancels and run-ended notices, as every cross-instance transport (Redis
 * pub/sub, PostgreSQL `NOTIFY`) carries them: ids as they are, nothing else of the run.
 * Changing them is a wire change: instances of different versions would stop hearing each other.
 */

/** A decoded payload: an object, its fields not yet checked. */
export type SignalMessage = Record<string, unknown>;

/** JSON, so any id is carried as it is; `replacedBy` only when set (older instances ignore it). */
export function encodeCancelPayload({
  threadId,
  runId,
  requestedAt,
  replacedBy,
}: CancelSignal): string {
  return JSON.stringify({
    threadId,
    runId,
    ...(requestedAt === undefined ? {} : { requestedAt }),
    ...(replacedBy ? { replacedBy } : {}),
  });
}

/** JSON, so any id is carried as it is. */
export function encodeRunEndedPayload({
  threadId,
  runId,
  status,
  stopReason,
}: RunEndedSignal): string {
  return JSON.stringify({ threadId, runId, status, stopReason });
}

/** The payload's object, or `undefined` for one that is not a JSON object. */
export function parseSignalPayload(payload: string): SignalMessage | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    return typeof value === 'object' && value !== null ? (value as SignalMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** True when the message names a run. */
export function namesRun(
  message: SignalMessage,
): message is SignalMessage & { threadId: string; runId: string } {
  return typeof message.threadId === 'string' && typeof message.runId === 'string';
}

/** The cancel a message carries, or `undefined` for one this version cannot read. */
export function cancelOf(message: SignalMessage): CancelSignal | undefined {
  if (!namesRun(message)) return undefined;
  const { threadId, runId, requestedAt } = message;
  const replacedBy = replacementOf(message.replacedBy);
  return {
    threadId,
    runId,
    ...(typeof requestedAt === 'number' ? { requestedAt } : {}),
    ...(replacedBy ? { replacedBy } : {}),
  };
}

/** A cancel's replacement as sent, or `undefined` for none (or one this version cannot read: a plain cancel then). */
function replacementOf(value: unknown): RunReplacement | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { runId, multitask } = value as Record<string, unknown>;
  if (
    typeof runId !== 'string' ||
    !MULTITASK_STRATEGIES.includes(multitask as RunReplacement['multitask'])
  )
    return undefined;
  return { runId, multitask: multitask as RunReplacement['multitask'] };
}

/** The run end a message carries, or `undefined` for one this version cannot read. */
export function runEndedOf(message: SignalMessage): RunEndedSignal | undefined {
  if (
    !namesRun(message) ||
    typeof message.status !== 'string' ||
    typeof message.stopReason !== 'string'
  )
    return undefined;
  const { threadId, runId, status, stopReason } = message;
  // Status and reason are passed on as sent: a newer instance may know values this one does not.
  return { threadId, runId, status, stopReason } as RunEndedSignal;
}
