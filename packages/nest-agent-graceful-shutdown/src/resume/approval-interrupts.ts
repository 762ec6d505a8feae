import type { ToolCall } from '../agent/agent-message.js';

/** One AG-UI interrupt of a run paused for approval. */
export interface ApprovalInterrupt {
  id: string;
  reason: 'tool_approval';
  toolCallId: string;
  message: string;
}

/** The interrupt id that asks about `toolCallId`; a resume entry answers it by this id. */
export const approvalInterruptId = (toolCallId: string) => `approve:${toolCallId}`;

/** The interrupts a run paused for approval reports: one per call waiting for an answer. */
export function approvalInterrupts(calls: readonly ToolCall[]): ApprovalInterrupt[] {
  return calls.map((call) => ({
    id: approvalInterruptId(call.id),
    reason: 'tool_approval',
    toolCallId: call.id,
    message: `Approve ${call.name}(${call.arguments})? Answer with resume: { interruptId, status: "resolved", payload: { approved: true | false } }, or status "cancelled" to reject.`,
  }));
}
