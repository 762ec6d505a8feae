import { AgentServiceError } from './agent-service.error.js';

/** The thread waits for a human's answer on tool calls; a run request must carry it in `resume`. */
export class ApprovalPendingError extends AgentServiceError {
  override readonly name = 'ApprovalPendingError';

  constructor(
    readonly threadId: string,
    readonly interruptIds: readonly string[],
  ) {
    super(
      'APPROVAL_PENDING',
      409,
      `thread ${threadId} is waiting for approval: send a run request whose resume answers ${interruptIds.join(', ')} (status "resolved" with payload {approved: true|false}, or "cancelled")`,
    );
  }
}
