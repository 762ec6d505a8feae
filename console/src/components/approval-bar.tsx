import type { PendingApproval, ToolCallView } from '../run/run-view';

/** The tool calls a paused run waits on, with the human's two answers. */
export function ApprovalBar(props: {
  approvals: PendingApproval[];
  toolCalls: Record<string, ToolCallView>;
  busy: boolean;
  onAnswer: (approved: boolean) => void;
}) {
  return (
    <section class="approval" aria-label="Approval">
      <h3>Approval needed</h3>
      <ul>
        {props.approvals.map((approval) => {
          const call = props.toolCalls[approval.toolCallId];
          return (
            <li key={approval.id}>{call ? `${call.name}(${call.args})` : approval.toolCallId}</li>
          );
        })}
      </ul>
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={props.busy}
          onClick={() => props.onAnswer(true)}
        >
          Approve
        </button>
        <button type="button" disabled={props.busy} onClick={() => props.onAnswer(false)}>
          Reject
        </button>
      </div>
    </section>
  );
}
