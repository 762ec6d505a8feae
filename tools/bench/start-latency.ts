import { performance } from 'node:perf_hooks';
import { newThreadInput } from './run-stream-client';
import type { SpawnedService } from './spawned-service';
import { openSseRequest, type SseRequest } from './sse-request';
import { withDeadline } from './wait-until';

/**
 * POSTs `runs` new runs to `service` at once and returns, per run, the milliseconds from its
 * request to its first event: what a burst of run starts costs with nothing being handed over,
 * the baseline of a continuation's gap. The streams are dropped once each has its first event.
 */
export async function firstEventLatencies(
  service: SpawnedService,
  token: string,
  runs: number,
  threadPrefix: string,
  timeoutMs: number,
): Promise<number[]> {
  const requests: SseRequest[] = [];
  const firsts: Promise<number>[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const sentAt = performance.now();
      let arrived!: (ms: number) => void;
      firsts.push(new Promise<number>((resolve) => (arrived = resolve)));
      const body = newThreadInput(`${threadPrefix}-${i}`, `run-${i}`, 'work');
      requests.push(
        openSseRequest(
          `${service.baseUrl}/v1/runs`,
          { method: 'POST', agent: service.agent, token, body },
          () => arrived(performance.now() - sentAt),
        ),
      );
    }
    const latencies = await withDeadline(Promise.all(firsts), timeoutMs, undefined);
    if (!latencies) throw new Error(`not every new run had its first event within ${timeoutMs} ms`);
    return latencies;
  } finally {
    requests.forEach((r) => r.abort());
  }
}
