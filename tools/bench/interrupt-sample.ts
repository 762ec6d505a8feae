import { performance } from 'node:perf_hooks';
import { sendRequest } from './body-request';
import { replacedRunProblems } from './interrupt-checks';
import { newThreadInput } from './run-stream-client';
import type { SpawnedService } from './spawned-service';
import { TERMINAL, TimedRunStream } from './timed-run-stream';

/** One measured start: milliseconds from the new run's request to its `RUN_STARTED` at its client. */
export interface StartSample {
  startedMs: number;
  /** Wrong statuses or terminal codes; empty when the run went as documented. */
  problems: string[];
}

/** One measured interrupt: also the milliseconds to the replaced run's `RUN_REPLACED` at its client. */
export interface InterruptSample extends StartSample {
  replacedMs: number;
}

const FIRST_RUN = 'run-1';
const NEW_RUN = 'run-2';

/** Stops a measured run once timed, so runs do not pile up on the instances between samples. */
async function stopRun(
  service: SpawnedService,
  token: string,
  threadId: string,
  runId: string,
): Promise<string[]> {
  const path = `/v1/runs/${threadId}/cancel?runId=${runId}&waitMs=10000`;
  const answer = await sendRequest(
    service.baseUrl,
    { method: 'POST', path, headers: { authorization: `Bearer ${token}` } },
    service.agent,
  );
  return answer.status === 200
    ? []
    : [`stopping the new run answered ${answer.status}${answer.code ? ` ${answer.code}` : ''}`];
}

/**
 * Starts a run on `active` on the fresh thread `threadId`; once its first tool call has started,
 * sends a new run on that thread with `multitask=interrupt` to `target` (the same instance or
 * another) and times both outcomes from that request. The new run is stopped afterwards.
 */
export async function interruptSample(
  active: SpawnedService,
  target: SpawnedService,
  token: string,
  threadId: string,
  timeoutMs: number,
): Promise<InterruptSample> {
  const firstMessage = { id: `${threadId}-user-1`, role: 'user', content: 'work' };
  const firstInput = newThreadInput(threadId, FIRST_RUN, firstMessage.content);
  const first = new TimedRunStream(`${active.baseUrl}/v1/runs`, active.agent, token, firstInput);
  let second: TimedRunStream | undefined;
  try {
    await first.arrival('TOOL_CALL_START', timeoutMs);
    const secondInput = {
      ...firstInput,
      runId: NEW_RUN,
      messages: [firstMessage, { id: `${threadId}-user-2`, role: 'user', content: 'instead' }],
    };
    const sentAt = performance.now();
    second = new TimedRunStream(
      `${target.baseUrl}/v1/runs?multitask=interrupt`,
      target.agent,
      token,
      secondInput,
    );
    const [replacedAt, startedAt] = await Promise.all([
      first.arrival(TERMINAL, timeoutMs),
      second.arrival('RUN_STARTED', timeoutMs),
    ]);
    const problems = [
      ...replacedRunProblems(first.terminal, NEW_RUN),
      ...(await stopRun(target, token, threadId, NEW_RUN)),
    ];
    return { replacedMs: replacedAt - sentAt, startedMs: startedAt - sentAt, problems };
  } finally {
    first.abort();
    second?.abort();
  }
}

/** The floor: milliseconds from a new run's request on a fresh thread (no active run) to its `RUN_STARTED`. */
export async function newRunStart(
  service: SpawnedService,
  token: string,
  threadId: string,
  timeoutMs: number,
): Promise<StartSample> {
  const sentAt = performance.now();
  const run = new TimedRunStream(
    `${service.baseUrl}/v1/runs`,
    service.agent,
    token,
    newThreadInput(threadId, FIRST_RUN, 'work'),
  );
  try {
    const startedAt = await run.arrival('RUN_STARTED', timeoutMs);
    return {
      startedMs: startedAt - sentAt,
      problems: await stopRun(service, token, threadId, FIRST_RUN),
    };
  } finally {
    run.abort();
  }
}
