import {
  newThreadInput,
  openRunStream,
  type RunStream,
  type RunStreamResult,
} from './run-stream-client';
import type { SpawnedService } from './spawned-service';
import { messageOf } from './bench-stats';
import { waitUntil } from './wait-until';

/** How often a start refused with `Retry-After` (503 or 429) is sent again. */
const START_RETRIES = 5;

/** Runs started on one instance and all seen in flight there. */
export interface InFlightRuns {
  /** One stream per run, in start order; abort them on every path. */
  streams: RunStream[];
  /** The instance's in-flight count when it reached the number of runs. */
  inFlight: number;
}

/** Reads `details.shutdown.inFlightRuns` from a terminus readiness body. */
function inFlightRuns(body: unknown): number | undefined {
  const value = (body as { details?: { shutdown?: { inFlightRuns?: unknown } } } | undefined)
    ?.details?.shutdown?.inFlightRuns;
  return typeof value === 'number' ? value : undefined;
}

/**
 * POSTs `runs` runs, one per new thread (`<threadPrefix>-<i>`, run `run-<i>`), and waits until the
 * service reports them all in flight. Fails, aborting the streams, if that takes longer than
 * `timeoutMs` or if any stream ended first: a run that ended before the signal voids the measurement.
 */
export async function putRunsInFlight(
  service: SpawnedService,
  token: string,
  runs: number,
  threadPrefix: string,
  timeoutMs: number,
): Promise<InFlightRuns> {
  const streams: RunStream[] = [];
  let ended: RunStreamResult | undefined;
  try {
    for (let i = 0; i < runs; i++) {
      const stream = openRunStream(
        service.baseUrl,
        service.agent,
        token,
        newThreadInput(`${threadPrefix}-${i}`, `run-${i}`, 'work'),
        START_RETRIES,
      );
      void stream.done.then((result) => (ended ??= result));
      streams.push(stream);
    }
    const reached = await waitUntil(
      async () => {
        if (ended) return 0;
        const count = inFlightRuns((await service.readiness()).body);
        return count !== undefined && count >= runs ? count : undefined;
      },
      `${runs} runs in flight`,
      timeoutMs,
    ).catch((error: unknown) => new Error(`${messageOf(error)}\n${service.logs.slice(-2_000)}`));
    if (ended) throw new Error(`a run stream ended before the signal: ${JSON.stringify(ended)}`);
    if (reached instanceof Error) throw reached;
    return { streams, inFlight: reached };
  } catch (error) {
    streams.forEach((s) => s.abort());
    throw error;
  }
}

/**
 * Adds runs `from`..`to - 1` to `streams` in waves of `waveSize` (a wave is sent, then seen in
 * flight, before the next one), so ten thousand connections do not all queue on the listen
 * backlog at once. Fails like {@link putRunsInFlight}; the caller aborts `streams` on every path.
 */
export async function addRunsInFlight(
  service: SpawnedService,
  token: string,
  range: { from: number; to: number; waveSize: number },
  threadPrefix: string,
  streams: RunStream[],
  timeoutMs: number,
): Promise<number> {
  let ended: RunStreamResult | undefined;
  let inFlight = range.from;
  const deadline = Date.now() + timeoutMs;
  for (let start = range.from; start < range.to; start += range.waveSize) {
    const end = Math.min(range.to, start + range.waveSize);
    for (let i = start; i < end; i++) {
      const stream = openRunStream(
        service.baseUrl,
        service.agent,
        token,
        newThreadInput(`${threadPrefix}-${i}`, `run-${i}`, 'work'),
        START_RETRIES,
      );
      void stream.done.then((result) => (ended ??= result));
      streams.push(stream);
    }
    inFlight = await waitUntil(
      async () => {
        if (ended) return 0;
        const count = inFlightRuns((await service.readiness()).body);
        return count !== undefined && count >= end ? count : undefined;
      },
      `${end} runs in flight`,
      Math.max(1, deadline - Date.now()),
    ).catch((error: unknown) => {
      throw new Error(`${messageOf(error)}\n${service.logs.slice(-2_000)}`);
    });
    if (ended) throw new Error(`a run stream ended before the signal: ${JSON.stringify(ended)}`);
  }
  return inFlight;
}
