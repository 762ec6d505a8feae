import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/** What one run's clock saw: when each tool call started, and how long each step waited on durable writes. */
export interface RunTimes {
  /** Start of each tool call, in `performance.now()` ms, in order. */
  toolCalls: number[];
  /** Per step (from one tool call to the next), the ms spent waiting on durable writes. */
  writeWaits: number[];
}

/** A run's times, the write wait of the step in progress, and the writes in flight (since when). */
type RunClock = RunTimes & { waiting: number; inFlight: number; since: number };

/**
 * The clock of the run in whose async context code runs: every subject of the throughput
 * bench shares one no-op tool and one persistence per case, and the run a tool call or a
 * write belongs to is found through this store, so no framework needs to pass anything along.
 */
const runClock = new AsyncLocalStorage<RunClock>();

/** Marks a tool call of the current run, closing the step before it; a no-op outside {@link timeRun}. */
export function markToolCall(): void {
  const clock = runClock.getStore();
  if (!clock) return;
  if (clock.toolCalls.length > 0) clock.writeWaits.push(clock.waiting);
  clock.waiting = 0;
  clock.toolCalls.push(performance.now());
}

/**
 * Runs one durable write of the current run, adding to the step's write wait the time during
 * which at least one of its writes was in flight: writes that overlap count once.
 */
export async function timeWrite<T>(write: () => Promise<T>): Promise<T> {
  const clock = runClock.getStore();
  if (clock && clock.inFlight++ === 0) clock.since = performance.now();
  try {
    return await write();
  } finally {
    if (clock && --clock.inFlight === 0) clock.waiting += performance.now() - clock.since;
  }
}

/**
 * Runs one run with its clock: resolves with the start time of each tool call and the write
 * wait of each step between two of them.
 *
 * @example
 * const { toolCalls, writeWaits } = await timeRun(() => subject.run());
 */
export async function timeRun(run: () => Promise<void>): Promise<RunTimes> {
  const clock: RunClock = { toolCalls: [], writeWaits: [], waiting: 0, inFlight: 0, since: 0 };
  await runClock.run(clock, run);
  return { toolCalls: clock.toolCalls, writeWaits: clock.writeWaits };
}

/** The time between consecutive tool calls of a run, in ms: one step each (a model call, a tool call and their checkpoints). */
export function stepTimes(times: readonly number[]): number[] {
  return times.slice(1).map((time, i) => time - times[i]);
}
