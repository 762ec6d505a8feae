import type { MultitaskStrategy } from '../agent/multitask.js';
import type { ExistingRunStream } from '../streams/existing-run-stream.js';
import type { AgentRun } from './agent-run.js';

/**
 * What `AgentRunService.start` answers a run request with: the run it started or resumed
 * (`AgentRun`), or the stream of the run the request named, which already exists
 * (`ExistingRunStream`: joined live, or replayed from its log). Either way, `streamTo(response)`
 * writes the answer.
 */
export type RunAnswer = AgentRun | ExistingRunStream;

/** Where the answer to a request naming an existing run starts. */
export interface RunRequestOptions {
  /**
   * The request's `Last-Event-ID`: an answer that joins or replays an existing run sends the
   * events after it. Unset: from the run's first event. A new run ignores it.
   */
  lastEventId?: number;
  /**
   * What a new run does when the thread's run is active, on any instance: `reject` (409
   * `RUN_IN_PROGRESS`), `enqueue` (stored at once; its stream waits, then carries it once the
   * runs before it ended), `interrupt` (the active run stops at its next safe point, its stream
   * ending with `RUN_ERROR` `RUN_REPLACED` naming this run, then this run starts) or `rollback`
   * (the same, then what the stopped run added is removed). Unset: the module's
   * `runs.multitask`. See `MultitaskStrategy`.
   */
  multitask?: MultitaskStrategy;
}
