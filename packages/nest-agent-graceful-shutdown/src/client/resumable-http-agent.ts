import { HttpAgent, enforceOutgoingInput, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { Observable } from 'rxjs';
import { defaultJoinUrl, withQuery } from './join-url.js';
import { resolveReconnectOptions, type ResolvedReconnectOptions } from './reconnect-options.js';
import type {
  ReconnectInfo,
  ResumableHttpAgentConfig,
  ResumableRunStats,
} from './resumable-http-agent-config.js';
import { RunFollower } from './run-follower.js';
import type { RunRequest } from './stream-connection.js';

/** `HttpAgent.run`'s observable type (`@ag-ui/client` may bring its own copy of rxjs; observables of both interoperate). */
type RunEvents = ReturnType<HttpAgent['run']>;

/** The settings of a `ResumableHttpAgent` beside those of `HttpAgent`, with their defaults applied. */
interface ResumableSettings {
  reconnect: ResolvedReconnectOptions;
  joinUrl?: (threadId: string, runId: string) => string;
  retryInterrupted: boolean;
  onReconnect?: (info: ReconnectInfo) => void;
  /** The POST's URL, with the `multitask` query when one is set. */
  postUrl: string;
}

function newStats(): ResumableRunStats {
  return { handovers: 0, joins: 0, resends: 0, interruptedRetries: 0, duplicatesDropped: 0 };
}

/**
 * An AG-UI `HttpAgent` that follows each run to its end across dropped connections and
 * instance handovers, so one `runAgent` call resolves with the run's whole result. It POSTs the
 * run as `HttpAgent` does (same `headers`, `fetch`, `abortController`), keeps the `id:` of every
 * event, and when the stream ends without a terminal event it joins the run's stream
 * (`GET {joinUrl}` with `Last-Event-ID`) until the run ends: after a `handover` notice, a dropped
 * connection, a skipped id, a `409 RUN_IN_PROGRESS`; it resends the same POST when the run was
 * never admitted, was refused with 503 `SHUTTING_DOWN` (after `Retry-After`), or was stopped with
 * `RUN_ERROR` `RUN_INTERRUPTED` (hidden, with the resent run's second `RUN_STARTED`; at once when
 * a join ended with it, as the run was already saved). Subscribers
 * get each event once, in order, as one well-formed run. `abortRun()` stops it all at once.
 *
 * @example
 * const agent = new ResumableHttpAgent({
 *   url: 'https://agents.example.com/v1/runs',
 *   headers: { Authorization: `Bearer ${token}` },
 *   threadId: 'thread-1',
 *   initialMessages: [{ id: 'm-1', role: 'user', content: 'Plan my trip' }],
 * });
 * const { newMessages } = await agent.runAgent({ runId: 'run-1' });
 * console.log(agent.stats); // { handovers: 1, joins: 1, resends: 0, interruptedRetries: 0, duplicatesDropped: 0 }
 */
export class ResumableHttpAgent extends HttpAgent {
  /** Requests made beyond each run's first POST, counted since the agent was created (a clone starts at 0). */
  readonly stats: ResumableRunStats = newStats();
  private resumable: ResumableSettings;

  /** @throws TypeError when a `reconnect` value is not a finite number ≥ 0. */
  constructor(config: ResumableHttpAgentConfig) {
    super(config);
    this.resumable = {
      reconnect: resolveReconnectOptions(config.reconnect),
      joinUrl: config.joinUrl,
      retryInterrupted: config.retryInterrupted ?? true,
      onReconnect: config.onReconnect,
      postUrl: config.multitask ? withQuery(config.url, 'multitask', config.multitask) : config.url,
    };
  }

  /** The run's events, followed to its terminal event; errors with `RunRequestError`, `ReconnectTimeoutError` or `EventGapError`. */
  override run(input: RunAgentInput): RunEvents {
    const signal = this.abortController.signal;
    const events = new Observable<BaseEvent>((subscriber) => {
      let outgoing: RunAgentInput;
      try {
        outgoing = enforceOutgoingInput(input);
      } catch (error) {
        subscriber.error(error);
        return undefined;
      }
      const follower = new RunFollower(
        {
          runId: input.runId,
          post: () => this.postRequest(outgoing),
          join: (lastEventId) => this.joinRequest(input, lastEventId),
          fetch: (url, init) => this.fetch(url, init),
          reconnect: this.resumable.reconnect,
          retryInterrupted: this.resumable.retryInterrupted,
          onReconnect: this.resumable.onReconnect,
          stats: this.stats,
          signal,
        },
        subscriber,
      );
      follower.start();
      return () => follower.close();
    });
    return events as unknown as RunEvents;
  }

  override clone(): ResumableHttpAgent {
    const cloned = super.clone() as ResumableHttpAgent;
    Object.assign(cloned, { resumable: this.resumable, stats: newStats() });
    return cloned;
  }

  private postRequest(input: RunAgentInput): RunRequest {
    return { method: 'POST', url: this.resumable.postUrl, init: this.requestInit(input) };
  }

  private joinRequest(input: RunAgentInput, lastEventId: number): RunRequest {
    const joinUrl = this.resumable.joinUrl ?? defaultJoinUrl(this.url);
    const headers: Record<string, string> = { ...this.headers, Accept: 'text/event-stream' };
    if (lastEventId > 0) headers['Last-Event-ID'] = String(lastEventId);
    return { method: 'GET', url: joinUrl(input.threadId, input.runId), init: { headers } };
  }
}
