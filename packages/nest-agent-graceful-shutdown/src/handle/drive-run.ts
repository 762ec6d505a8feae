import type { RunOutcome } from '../agent/run-outcome.js';
import type { DurableRunHandle } from './durable-run-handle.js';
import type { DurableAgent } from './run-handle.interface.js';

/**
 * Runs `agent` through `handle` from its start hooks to its outcome. Whatever the agent
 * throws ends the run; the handle decides whether that was a stop or a failure.
 */
export async function driveRun(agent: DurableAgent, handle: DurableRunHandle): Promise<RunOutcome> {
  try {
    await handle.begin();
    await agent.run(handle);
  } catch (error) {
    return handle.finish(error ?? new Error('the agent failed without an error'));
  }
  return handle.finish();
}
