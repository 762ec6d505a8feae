import type { ToolCall } from '../agent/agent-message.js';
import type { AgentVersionChange, NotRunCall } from '../agent/agent-release.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';

const WHY: Record<InterruptedState['reason'], string> = {
  shutdown: 'the service instance running it was shut down (for example during a deployment)',
  crash: 'the service instance running it stopped unexpectedly',
  approval: 'it was waiting for a human decision',
};

/** Text of a tool result for a call that may have run when the run stopped. */
export const OUTCOME_UNKNOWN_RESULT =
  'interrupted, outcome unknown: this tool call was in progress when the run stopped and no result was recorded. Check its effect before calling it again.';

/** Text of a tool result for a call left without a result by a run that was canceled or failed. */
export const NOT_COMPLETED_RESULT =
  'not completed: the run was stopped before this tool call returned a result; its outcome is unknown.';

/** What a resume message is written from. */
export interface ResumeMessageContext {
  /** The marker the interrupted run left: when, why, in which phase, what was pending. */
  marker: InterruptedState;
  /** Calls run now, before the first model call: they had not started, or are safe to repeat. */
  rerun: readonly ToolCall[];
  /** Calls that may have run, answered as "interrupted, outcome unknown". */
  unknown: readonly ToolCall[];
  /** Calls not run because the agent changed since they were asked for (each result says why). */
  notRun: readonly NotRunCall[];
  /** The version change this resume crosses; null when the same release continues. */
  versionChange: AgentVersionChange | null;
  /** True when the last assistant answer was saved cut off by the stop. */
  answerCutOff: boolean;
}

/**
 * Writes the system message that tells the model its previous run was interrupted.
 * @example (context) => `Resumed after ${context.marker.reason}; do not repeat finished steps.`
 */
export type ResumeMessageTemplate = (context: ResumeMessageContext) => string;

/**
 * The built-in resume message: when, why, in which phase, what was pending, and to continue
 * without repeating finished work.
 */
export const defaultResumeMessage: ResumeMessageTemplate = ({
  marker,
  rerun,
  unknown,
  notRun,
  versionChange,
  answerCutOff,
}) => {
  const lines = [
    `The previous run (${marker.runId}) was interrupted at ${marker.interruptedAt} because ${WHY[marker.reason]}.`,
    `It stopped in the ${marker.phase} phase of iteration ${marker.iteration}.`,
  ];
  if (rerun.length)
    lines.push(
      `Tool calls run now because they had not started or are safe to repeat: ${describe(rerun)}.`,
    );
  if (unknown.length) lines.push(`Tool calls whose outcome is unknown: ${describe(unknown)}.`);
  if (versionChange) {
    const { from, to } = versionChange;
    lines.push(
      `The agent was updated since (release ${from.version} to ${to.version}): its tools may differ from those the earlier calls used.`,
    );
  }
  if (notRun.length) {
    lines.push(
      `Tool calls not run, because they do not fit the updated agent: ${describe(notRun.map((entry) => entry.call))}.`,
    );
  }
  if (!rerun.length && !unknown.length && !notRun.length) lines.push('No tool call was pending.');
  if (answerCutOff) {
    lines.push(
      'Your last answer above was cut off while you were writing it: it is incomplete, so continue or redo it rather than treating it as finished.',
    );
  }
  lines.push(
    'Continue the task from where it stopped. Every result above is already done: do not repeat finished work.',
  );
  return lines.join(' ');
};

function describe(calls: readonly ToolCall[]): string {
  return calls.map((call) => `${call.name}(${call.arguments}) [${call.id}]`).join(', ');
}
