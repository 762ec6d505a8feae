import { defaultJoinUrl } from 'nest-agent-graceful-shutdown/client';
import type { HandoverSession } from './handover-session';
import type { RunTrace } from './run-trace';
import { tappingFetch, type TappedConnection, type TappedFrame } from './stream-tap';

/** What the runs' full logs say against what their clients received, over all runs. */
export interface RunLogAudit {
  runs: number;
  /** Events in the runs' logs, summed. */
  eventsLogged: number;
  /** Frames with an id the clients received, over all their connections, summed. */
  eventsReceived: number;
  /** Log events no connection of the run's client carried. Must be 0. */
  eventsLost: number;
  /** Ids a client received more than once (each extra copy counts). Must be 0. */
  eventsRepeated: number;
  /** The runs with a lost or repeated event, or an id the log does not have, described. Must be empty. */
  runsWithLossOrRepeat: string[];
  /** Runs whose subscriber did not get exactly the log's events, in its order. Must be empty. */
  deliveryMismatches: string[];
  /** Runs whose log could not be read whole: unreachable, ids not 1…n, or no terminal event. Must be empty. */
  logsUnreadable: string[];
}

/** How long reading one run's whole log may take, in ms. */
const LOG_READ_TIMEOUT_MS = 30_000;

/** How many logs are read at once. */
const READS_AT_ONCE = 8;

const TERMINAL = new Set(['RUN_FINISHED', 'RUN_ERROR']);

/** The run's whole log: a join from the start (`Last-Event-ID: 0`), read to its end. */
async function readLog(baseUrl: string, token: string, run: RunTrace): Promise<TappedFrame[]> {
  let connection: TappedConnection | undefined;
  const get = tappingFetch((c) => (connection = c));
  // The URL the clients join, so the audit reads the log they followed.
  const url = defaultJoinUrl(`${baseUrl}/v1/runs`)(run.threadId, run.runId);
  const response = await get(url, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'text/event-stream',
      'last-event-id': '0',
      connection: 'close',
    },
    signal: AbortSignal.timeout(LOG_READ_TIMEOUT_MS),
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`HTTP ${response.status} ${await response.text()}`);
  for await (const chunk of response.body) void chunk;
  return connection?.frames ?? [];
}

/** How a join reads an earlier attempt of the run; the client hides these as it hides `RUN_INTERRUPTED`. */
const ATTEMPT_NOTICES = new Set(['run_interrupted', 'run_resumed']);

/** The events a subscriber must get for a log: each once, in order, one `RUN_STARTED`, no `RUN_INTERRUPTED` (the client retries those). */
function expectedDelivery(log: TappedFrame[]): string[] {
  const started = log.findIndex((frame) => frame.type === 'RUN_STARTED');
  return log
    .filter(
      (frame, i) =>
        !(frame.type === 'RUN_STARTED' && i !== started) &&
        frame.fingerprint !== 'RUN_ERROR:RUN_INTERRUPTED',
    )
    .filter((frame) => !(frame.type === 'CUSTOM' && ATTEMPT_NOTICES.has(frame.name ?? '')))
    .map((frame) => frame.fingerprint);
}

/** Compares one run's log with its trace and adds the differences to `audit`; true when it found none. */
function auditRun(run: RunTrace, log: TappedFrame[], audit: RunLogAudit): boolean {
  const name = `${run.threadId}/${run.runId}`;
  const ids = log.map((frame) => frame.id);
  if (ids.some((id, i) => id !== i + 1) || !TERMINAL.has(log.at(-1)?.type ?? '')) {
    audit.logsUnreadable.push(
      `${name}: ${log.length} events, ids ${ids.slice(0, 3).join(',')}…${ids.at(-1)}, last ${log.at(-1)?.type ?? 'none'}`,
    );
    return false;
  }
  const received = run.receivedIds();
  const seen = new Set(received);
  const lost = log.length - ids.filter((id) => seen.has(id as number)).length;
  const repeated = received.length - seen.size;
  const unknown = [...seen].filter((id) => !(id >= 1 && id <= log.length));
  audit.eventsLogged += log.length;
  audit.eventsReceived += received.length;
  audit.eventsLost += lost;
  audit.eventsRepeated += repeated;
  if (lost || repeated || unknown.length)
    audit.runsWithLossOrRepeat.push(
      `${name}: ${lost} lost, ${repeated} repeated, ids not in the log: ${unknown.join(',') || 'none'}`,
    );
  const expected = expectedDelivery(log);
  const firstDifference = expected.findIndex((fingerprint, i) => run.delivered[i] !== fingerprint);
  if (firstDifference >= 0 || run.delivered.length !== expected.length) {
    const at =
      firstDifference >= 0 ? firstDifference : Math.min(expected.length, run.delivered.length);
    audit.deliveryMismatches.push(
      `${name}: event ${at + 1} is ${run.delivered[at] ?? 'missing'}, the log has ${expected[at] ?? 'nothing'}`,
    );
    return false;
  }
  return !(lost || repeated || unknown.length);
}

/**
 * After the runs ended, reads each run's full log through the load balancer (a join from 0)
 * and compares it with the ids its client received over all its connections (lost: in the log,
 * never received; repeated: received twice) and with the events its subscriber got (the same
 * events, once each, in the log's order). `onDifference` gets each run that differs, with its log.
 */
export async function auditRunLogs(
  baseUrl: string,
  sessions: HandoverSession[],
  onDifference: (run: RunTrace, log: TappedFrame[]) => void = () => undefined,
): Promise<RunLogAudit> {
  const audit: RunLogAudit = {
    runs: 0,
    eventsLogged: 0,
    eventsReceived: 0,
    eventsLost: 0,
    eventsRepeated: 0,
    runsWithLossOrRepeat: [],
    deliveryMismatches: [],
    logsUnreadable: [],
  };
  const queue = sessions.flatMap((session) =>
    session.runs.map((run) => ({ run, token: session.token })),
  );
  audit.runs = queue.length;
  const reader = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { run, token } = next;
      const log = await readLog(baseUrl, token, run).catch(
        (error: unknown) => `${run.threadId}/${run.runId}: ${String(error)}`,
      );
      if (typeof log === 'string') audit.logsUnreadable.push(log);
      else if (!auditRun(run, log, audit)) onDifference(run, log);
    }
  };
  await Promise.all(Array.from({ length: READS_AT_ONCE }, reader));
  return audit;
}
