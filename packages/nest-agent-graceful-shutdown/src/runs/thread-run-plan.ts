import type { AgentMessage } from '../agent/agent-message.js';
import type { ThreadRecord, ToolCallRecord } from '../contracts/session-records.js';
import { ApprovalPendingError } from '../errors/approval-pending.error.js';
import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';
import type { DurableAgent } from '../handle/run-handle.interface.js';
import { planApprovals, type ResumeAnswer } from '../resume/approval-answers.js';
import { approvalInterruptId } from '../resume/approval-interrupts.js';
import { findDanglingToolCalls } from '../resume/dangling-tool-calls.js';
import type { ResumeMessageTemplate } from '../resume/resume-message.js';
import { planResume, type ResumePlan } from '../resume/resume-planner.js';
import { toolResultMessage } from '../resume/tool-result-message.js';
import type { AgentReleaseCheck, ReleaseCheckResult } from './agent-release-check.js';

/** How a run request continues its thread. */
export type ThreadRunPlan = ResumePlan & {
  /** Calls a human approved: they run without pausing again. */
  approvedIds: ReadonlySet<string>;
  /** The agent's release, the change the run crosses, and the framework state to continue from. */
  release: ReleaseCheckResult;
};

/** What the plan is made with. */
export interface ThreadRunPlanFacts {
  agent: DurableAgent;
  releases: AgentReleaseCheck;
  resumeMessage: ResumeMessageTemplate;
  /** The execution records of tool calls, by id (`SessionStore.findToolCalls`). */
  findToolCalls(threadId: string, ids: readonly string[]): Promise<ToolCallRecord[]>;
}

/** The request the plan is for. */
export interface ThreadRunRequest {
  threadId: string;
  runId: string;
  /** Answers to a paused thread's approval interrupts. */
  resume: readonly ResumeAnswer[];
  /**
   * A new message on a thread paused for approval, sent without answers, declines every call
   * that waits (multitask `interrupt`); unset, such a request is refused (`ApprovalPendingError`).
   */
  declineApprovals?: boolean;
}

/**
 * Plans how a run request continues `thread` (null: a new thread) whose history is `history`:
 * a thread paused for approval continues only with an answer to each of its interrupts; an
 * interrupted thread resumes (resume message, dangling calls resolved, the agent's release
 * checked against the one that wrote the attempt); any other just continues. Every run request
 * goes through it, on any instance, and so does the `/testing` durability kit.
 */
export function planThreadRun(
  thread: ThreadRecord | null,
  history: readonly AgentMessage[],
  request: ThreadRunRequest,
  facts: ThreadRunPlanFacts,
): Promise<ThreadRunPlan> {
  return thread?.status === 'awaiting_approval'
    ? approvalPlan(thread, request, facts)
    : resumePlan(thread, history, request, facts);
}

async function resumePlan(
  thread: ThreadRecord | null,
  history: readonly AgentMessage[],
  { threadId, runId, resume }: ThreadRunRequest,
  { agent, releases, resumeMessage, findToolCalls }: ThreadRunPlanFacts,
): Promise<ThreadRunPlan> {
  if (resume.length)
    throw new InvalidRunInputError('resume', `thread ${threadId} is not waiting for approval`);
  const marker = thread?.status === 'interrupted' ? thread.interrupt : null;
  const dangling = findDanglingToolCalls(history);
  const toolCalls = await findToolCalls(
    threadId,
    dangling.map((call) => call.id),
  );
  const release = await releases.check({
    threadId,
    runId,
    agent,
    thread: marker ? thread : null,
    pending: marker ? dangling : [],
  });
  const plan = planResume(history, marker, {
    isIdempotent: (name: string) => agent.toolTraits(name)?.idempotent === true,
    toolCalls,
    resumeMessage,
    notRun: release.notRun,
    versionChange: release.change,
  });
  return { ...plan, approvedIds: new Set(), release };
}

async function approvalPlan(
  thread: ThreadRecord,
  { threadId, runId, resume: sent, declineApprovals }: ThreadRunRequest,
  { agent, releases }: ThreadRunPlanFacts,
): Promise<ThreadRunPlan> {
  const pending =
    thread.interrupt?.pendingToolCalls.map(({ id, name, arguments: args }) => ({
      id,
      name,
      arguments: args,
    })) ?? [];
  const waiting = pending.filter((call) => agent.toolTraits(call.name)?.requiresApproval === true);
  // Declined as a human's rejection is: answered, not run, and the model told not to retry it.
  const resume =
    sent.length === 0 && declineApprovals
      ? waiting.map((call) => ({
          interruptId: approvalInterruptId(call.id),
          status: 'cancelled' as const,
        }))
      : sent;
  if (resume.length === 0) {
    throw new ApprovalPendingError(
      threadId,
      waiting.map((call) => approvalInterruptId(call.id)),
    );
  }
  const approvals = planApprovals(pending, waiting, resume);
  const release = await releases.check({
    threadId,
    runId,
    agent,
    thread,
    pending: approvals.toRun,
  });
  const notRun = approvals.toRun.flatMap((call) => release.notRun.get(call.id) ?? []);
  return {
    resolvedResults: [
      ...approvals.rejectedResults,
      ...notRun.map(({ call, result }) => toolResultMessage(call, result)),
    ],
    toRun: approvals.toRun.filter((call) => !release.notRun.has(call.id)),
    notRun,
    resumeMessage: null,
    approvedIds: approvals.approvedIds,
    release,
  };
}
