import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BaseEvent } from '@ag-ui/core';
import type { LoggedEvent, RunEventLog } from 'nest-agent-graceful-shutdown/store';
import { withDeadline } from './wait-until';

/** How the join-latency samples are taken. */
export interface JoinLatencyOptions {
  /** Measured appends per log. */
  runs: number;
  /** Unmeasured appends first, so connections and code are warm. */
  warmupRuns: number;
  /** Each append waits a random 0..maxGapMs first. */
  maxGapMs: number;
  /** An event not delivered this long after its append fails the measurement. */
  abortTimeoutMs: number;
}

const event = (id: number): LoggedEvent => ({
  id,
  event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'bench', delta: `delta ${id}` } as BaseEvent,
});

/**
 * Join latency across instances: instance B follows a run's log (as a stream joined on B
 * does), instance A appends one event at a time; each sample is from just before `append` on A
 * to the event reaching B's follower. Sequential: each append waits for the previous delivery.
 */
export async function joinLatencies(
  writer: RunEventLog,
  reader: RunEventLog,
  options: JoinLatencyOptions,
): Promise<number[]> {
  const run = { threadId: `bench-join-${Date.now()}`, runId: 'run-1' };
  const arrivals = new Map<number, (at: number) => void>();
  const stop = reader.follow(run, 0, {
    onEvents: (events) => events.forEach((entry) => arrivals.get(entry.id)?.(performance.now())),
  });
  try {
    const samples: number[] = [];
    for (let id = 1; id <= options.warmupRuns + options.runs; id++) {
      await sleep(Math.random() * options.maxGapMs);
      const arrived = new Promise<number>((resolve) => arrivals.set(id, resolve));
      const sentAt = performance.now();
      await writer.append(run, [event(id)]);
      const at = await withDeadline(arrived, options.abortTimeoutMs, undefined);
      if (at === undefined)
        throw new Error(
          `event ${id} did not reach the follower within ${options.abortTimeoutMs} ms of its append`,
        );
      arrivals.delete(id);
      if (id > options.warmupRuns) samples.push(at - sentAt);
    }
    return samples;
  } finally {
    stop();
  }
}
