import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { BaseEvent } from '@ag-ui/client';
import { ResumableHttpAgent, type ResumableRunStats } from 'nest-agent-graceful-shutdown/client';
import { withDeadline } from '../bench/wait-until';
import type { ClientSessionOptions } from './client-session';
import { RunTrace } from './run-trace';
import { StreamReader, type StreamEvent } from './stream-reader';
import { eventFingerprint, tappingFetch } from './stream-tap';

/** What `after` counted beyond `before`, counter by counter. */
function statsSince(before: ResumableRunStats, after: ResumableRunStats): ResumableRunStats {
  const since = { ...after };
  for (const key of Object.keys(since) as (keyof ResumableRunStats)[]) since[key] -= before[key];
  return since;
}

/**
 * One user's conversation through the package's `ResumableHttpAgent`, as an application would
 * hold it: one agent per thread, and per turn a new user message (new id) added to
 * `agent.messages` and one `runAgent` call through the load balancer, which follows the run
 * across handovers and dropped connections by itself. The session only watches: a tapping
 * `fetch` records every request and the frames it carried (see {@link tappingFetch}), the
 * subscriber records the events delivered, and each run becomes a {@link RunTrace}.
 *
 * Every request goes on its own connection (`Connection: close`): the local nginx changes its
 * upstreams by reloading, which closes its old workers' idle kept-alive connections, and a run
 * request sent on one as it closes would be resent for a reason that is the load balancer's,
 * not the service's (an ingress controller changes endpoints without a reload).
 */
export class HandoverSession {
  /** Ids of the user messages the service accepted (their run started), one per turn. */
  readonly acceptedMessageIds: string[] = [];
  /** Ids of the messages the runs reported finished (saved). */
  readonly finishedMessageIds = new Set<string>();
  /** Every run of the conversation, in order. */
  readonly runs: RunTrace[] = [];
  private readonly agent: ResumableHttpAgent;
  private current: RunTrace | undefined;

  constructor(private readonly options: ClientSessionOptions) {
    this.agent = new ResumableHttpAgent({
      url: `${options.baseUrl}/v1/runs`,
      headers: { Authorization: `Bearer ${options.token}`, Connection: 'close' },
      threadId: options.threadId,
      fetch: tappingFetch((connection) => this.current?.connections.push(connection)),
      reconnect: { timeoutMs: options.turnDeadlineMs },
      onReconnect: (info) => this.current?.reconnects.push(info),
    });
  }

  get threadId(): string {
    return this.options.threadId;
  }

  /** The bearer token of the user the thread belongs to. */
  get token(): string {
    return this.options.token;
  }

  /** Runs turn `n`: one new user message, one `runAgent` call; true when the run completed. */
  async turn(n: number): Promise<boolean> {
    const messageId = `${this.threadId}-turn-${n}`;
    this.agent.addMessage({ id: messageId, role: 'user', content: `Turn ${n}: do the demo task.` });
    const trace = new RunTrace(this.threadId, randomUUID());
    this.runs.push(trace);
    this.current = trace;
    const reader = new StreamReader();
    const before = { ...this.agent.stats };
    const began = performance.now();
    const onEvent = ({ event }: { event: BaseEvent }) => {
      trace.delivered.push(eventFingerprint(event as StreamEvent));
      reader.read(event as StreamEvent);
    };
    const run = this.agent.runAgent({ runId: trace.runId }, { onEvent }).then(
      () => undefined,
      (error: unknown) =>
        `runAgent failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
    const timedOut = `no end within ${this.options.turnDeadlineMs} ms`;
    let failure = await withDeadline(run, this.options.turnDeadlineMs, timedOut);
    if (failure === timedOut) this.agent.abortRun();
    if (!failure && reader.terminal?.kind !== 'finished')
      failure = `the run ended with ${JSON.stringify(reader.terminal ?? 'no terminal event')}`;
    trace.durationMs = performance.now() - began;
    trace.stats = statsSince(before, this.agent.stats);
    trace.completed = failure === undefined;
    trace.failure = failure;
    if (reader.started) this.acceptedMessageIds.push(messageId);
    for (const id of reader.finished) this.finishedMessageIds.add(id);
    this.current = undefined;
    return trace.completed;
  }
}
