/**
 * What a new run does on a thread whose run is active (the thread has one run at a time):
 * - `reject`: it is refused with 409 `RUN_IN_PROGRESS` (the default);
 * - `interrupt`: the active run, on whichever instance, stops at its next safe point keeping
 *   what it did (its cut tool calls answered as for a cancel, its stream ending with
 *   `RUN_ERROR` `RUN_REPLACED`), then the new run starts with the whole history, its new
 *   messages last;
 * - `rollback`: as `interrupt`, then what the stopped run added is removed (its messages and
 *   tool records; a run paused for approval is removed too), and the new run's stream opens
 *   with a CUSTOM `run_rolled_back` event listing the tool calls whose effects happened;
 * - `enqueue`: the new run is stored in the thread's queue at once and starts when the runs
 *   before it have ended (the active run, a pause for approval once answered, runs queued
 *   earlier), in arrival order, on whichever instance is there to start it, exactly once. Its
 *   stream opens at once with `RUN_STARTED` and a CUSTOM `run_queued` event
 *   `{position, activeRunId}`, waits, then carries the run's events to its terminal event.
 */
export type MultitaskStrategy = 'reject' | 'enqueue' | 'interrupt' | 'rollback';

/** Every strategy, in the order the contract names them. */
export const MULTITASK_STRATEGIES: readonly MultitaskStrategy[] = [
  'reject',
  'enqueue',
  'interrupt',
  'rollback',
];

/** The run that replaced a stopped one, and how: carried by the stop and by its terminal event. */
export interface RunReplacement {
  /** The new run of the same thread. */
  runId: string;
  multitask: MultitaskStrategy;
}
