import { randomUUID } from 'node:crypto';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';
import { approvalInterruptId } from './approval-interrupts.js';

/** An answer to one interrupt of a paused run (AG-UI `ResumeEntry`). */
export interface ResumeAnswer {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
}

/** Text of the tool result of a call a human rejected. */
export const REJECTED_RESULT =
  'rejected: a human declined this tool call, so it was not run. Do not retry it unless asked.';

/** How a run continues from an approval pause. */
export interface ApprovalPlan {
  /** The paused step's calls to run, in order: the approved ones and those that needed no approval. */
  toRun: ToolCall[];
  /** Calls a human approved: the runtime runs them without pausing again. */
  approvedIds: Set<string>;
  /** A tool result per rejected call, written before the run starts. */
  rejectedResults: AgentMessage[];
}

/**
 * Reads the answers to a paused step's approval interrupts. Every interrupt needs exactly one
 * answer: `resolved` with `payload.approved` true or false, or `cancelled` (a rejection).
 * Throws `InvalidRunInputError` naming the field for an unknown id, a duplicate, a missing
 * answer or a payload without `approved`.
 */
export function planApprovals(
  pending: readonly ToolCall[],
  waiting: readonly ToolCall[],
  answers: readonly ResumeAnswer[],
): ApprovalPlan {
  const byInterrupt = new Map(waiting.map((call) => [approvalInterruptId(call.id), call]));
  const decided = new Map<string, boolean>();
  answers.forEach((answer, index) => {
    const call = byInterrupt.get(answer.interruptId);
    if (!call)
      throw new InvalidRunInputError(
        `resume[${index}].interruptId`,
        `no pending interrupt ${answer.interruptId}; expected one of ${[...byInterrupt.keys()].join(', ')}`,
      );
    if (decided.has(call.id))
      throw new InvalidRunInputError(
        `resume[${index}].interruptId`,
        `${answer.interruptId} is answered twice`,
      );
    decided.set(call.id, answer.status === 'resolved' ? approvedFlag(answer, index) : false);
  });
  const missing = [...byInterrupt.entries()]
    .filter(([, call]) => !decided.has(call.id))
    .map(([id]) => id);
  if (missing.length)
    throw new InvalidRunInputError(
      'resume',
      `every pending interrupt needs an answer; missing ${missing.join(', ')}`,
    );
  const rejected = new Set([...decided].filter(([, approved]) => !approved).map(([id]) => id));
  return {
    toRun: pending.filter((call) => !rejected.has(call.id)),
    approvedIds: new Set([...decided].filter(([, approved]) => approved).map(([id]) => id)),
    rejectedResults: pending
      .filter((call) => rejected.has(call.id))
      .map((call) => ({
        id: randomUUID(),
        role: 'tool',
        toolCallId: call.id,
        content: REJECTED_RESULT,
      })),
  };
}

function approvedFlag(answer: ResumeAnswer, index: number): boolean {
  const approved = (answer.payload as { approved?: unknown } | undefined)?.approved;
  if (typeof approved !== 'boolean')
    throw new InvalidRunInputError(`resume[${index}].payload.approved`, 'must be true or false');
  return approved;
}
