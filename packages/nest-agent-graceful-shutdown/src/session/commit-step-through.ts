import type { CheckpointTarget, SessionStore } from '../contracts/session-store.interface.js';
import { isEmptyStep, type StepCommit } from '../contracts/step-commit.js';

/**
 * Commits a step through `store`: in one write with its `commitStep`, else through its older
 * methods one after another (a store written before `commitStep` keeps working, with one write
 * per kind): the messages, the started calls, then the state.
 */
export async function commitStepThrough(
  store: SessionStore,
  target: CheckpointTarget,
  step: StepCommit,
): Promise<void> {
  if (store.commitStep) return store.commitStep(target, step);
  // Messages first, as the handle's own fallback writes them: a held answer goes before the
  // started record of its call. An empty step still extends the lease and records the run's
  // progress, as an empty append does.
  if (step.messages?.length || isEmptyStep(step))
    await store.appendMessages(target, step.messages ?? []);
  for (const call of step.startedCalls ?? []) await store.recordToolCallStarted(target, call);
  if (step.state !== undefined) await store.saveRunState(target, step.state);
}
