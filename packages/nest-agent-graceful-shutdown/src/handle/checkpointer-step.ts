import type { StepCommit } from '../contracts/step-commit.js';
import type { StepCheckpointer, StepProgress } from '../contracts/step-checkpointer.interface.js';

/**
 * Writes a step through `checkpointer`: in one call when it has `commitStep`, else through its
 * older methods one after another (the messages, the started calls, then the state), so a
 * checkpointer written before `commitStep` keeps working.
 */
export async function writeStep(
  checkpointer: StepCheckpointer,
  step: StepCommit,
  progress: StepProgress,
): Promise<void> {
  if (checkpointer.commitStep) return checkpointer.commitStep(step, progress);
  // Messages first: a held answer goes before the started record of its call.
  if (step.messages?.length) await checkpointer.append(step.messages, progress);
  for (const call of step.startedCalls ?? []) await checkpointer.toolCallStarted?.(call, progress);
  if (step.state !== undefined) await checkpointer.saveState?.(step.state, progress);
}
