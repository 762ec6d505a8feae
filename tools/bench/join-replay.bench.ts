import { performance } from 'node:perf_hooks';
import { withPostgresAndRedis } from './bench-services';
import { benchIdentity } from './bench-identity';
import { formatMs, messageOf, summarize, type Summary } from './bench-stats';
import { renderTable } from './bench-table';
import { replayLog } from './log-replay';
import { idSequenceProblem } from './run-id-audit';
import { openRedisRunLog, openSqliteRunLog, type OpenedRunLog } from './run-log-readers';
import { newThreadInput, openRunStream } from './run-stream-client';
import { SpawnedService } from './spawned-service';
import { openSseRequest } from './sse-request';
import { withDeadline } from './wait-until';

/** The run size and repetitions of the join-replay benchmark. */
export interface JoinReplayOptions {
  /** The run must have at least this many events. */
  events: number;
  /** `DEMO_STEPS` of the first try (about 8 events a step); raised and run again if the run had too few events. */
  steps: number;
  /** Timed joins (and raw replays) per log, after one of each untimed. */
  joins: number;
  /** The raw replay's page, the join's own. */
  pageSize: number;
  /** How long producing the run, and one join, may take. */
  produceTimeoutMs: number;
  joinTimeoutMs: number;
}

/** One log's numbers. */
export interface JoinReplayRow {
  log: string;
  events: number;
  /** How long the demo agent took to produce the run, with the service writing every event to the log. */
  produceMs: number;
  /** From the join request sent to its terminal event received, in ms. */
  join: Summary;
  /** The same log read in this process with the library's class, page by page, in ms. */
  raw: Summary;
}

/** What the join-replay benchmark found. */
export interface JoinReplayResult {
  options: JoinReplayOptions;
  rows: JoinReplayRow[];
}

/** Runs made bigger until one has enough events. */
const PRODUCE_ATTEMPTS = 3;

/** Milliseconds from the join request to the run's terminal event; throws unless ids 1…`events` arrived once each. */
async function timeJoin(
  service: SpawnedService,
  token: string,
  run: { threadId: string; runId: string },
  events: number,
  timeoutMs: number,
): Promise<number> {
  const ids: number[] = [];
  let terminalAt: number | undefined;
  const sentAt = performance.now();
  const request = openSseRequest(
    `${service.baseUrl}/v1/runs/${run.threadId}/stream?runId=${run.runId}`,
    { method: 'GET', agent: service.agent, token },
    (data, id) => {
      ids.push(Number(id));
      const { type } = JSON.parse(data) as { type: string };
      if (type === 'RUN_FINISHED' || type === 'RUN_ERROR') terminalAt = performance.now();
    },
  );
  const end = await withDeadline(request.done, timeoutMs, undefined);
  if (!end) request.abort();
  if (end?.error) throw new Error(`join: ${end.error}`);
  const problem =
    idSequenceProblem(ids) ??
    (ids.length === events ? undefined : `${ids.length} of ${events} events`);
  if (terminalAt === undefined || problem)
    throw new Error(`join: ${problem ?? `no terminal event within ${timeoutMs} ms`}`);
  return terminalAt - sentAt;
}

/** Runs the demo agent to the end on `service`; the number of events its stream had. */
async function produceRun(
  service: SpawnedService,
  token: string,
  run: { threadId: string; runId: string },
  timeoutMs: number,
): Promise<number> {
  const stream = openRunStream(
    service.baseUrl,
    service.agent,
    token,
    newThreadInput(run.threadId, run.runId, 'work'),
  );
  const result = await withDeadline(stream.done, timeoutMs, undefined);
  if (!result) stream.abort();
  if (result?.terminal?.type !== 'RUN_FINISHED')
    throw new Error(
      `producing the run: ${result ? JSON.stringify(result) : `not finished within ${timeoutMs} ms`}`,
    );
  return result.events;
}

/**
 * Starts a service with `env`, produces a run of at least `options.events` events with the demo
 * agent (instant model and tool), then joins it from the start and replays its log raw, interleaved.
 */
async function measureLog(
  name: string,
  env: Record<string, string>,
  openLog: (service: SpawnedService) => Promise<OpenedRunLog>,
  options: JoinReplayOptions,
): Promise<JoinReplayRow> {
  const { env: identity, token } = benchIdentity();
  const run = { threadId: 'join-replay', runId: 'run-1' };
  for (let steps = options.steps, attempt = 1; ; attempt++) {
    const service = await SpawnedService.start({
      ...identity,
      ...env,
      DEMO_STEPS: String(steps),
      DEMO_REASONING_MS: '0',
      DEMO_TOOL_MS: '0',
    });
    try {
      const producedAt = performance.now();
      const events = await produceRun(service, token, run, options.produceTimeoutMs);
      const produceMs = performance.now() - producedAt;
      if (events < options.events) {
        if (attempt === PRODUCE_ATTEMPTS)
          throw new Error(
            `${PRODUCE_ATTEMPTS} runs, the last with DEMO_STEPS=${steps}, had fewer than ${options.events} events`,
          );
        steps = Math.ceil((steps * options.events) / events) + 1;
        continue;
      }
      const opened = await openLog(service);
      try {
        const joins: number[] = [];
        const raws: number[] = [];
        for (let i = 0; i <= options.joins; i++) {
          const joinMs = await timeJoin(service, token, run, events, options.joinTimeoutMs);
          const rawMs = await replayLog(opened.log, run, events, options.pageSize);
          if (i === 0) continue;
          joins.push(joinMs);
          raws.push(rawMs);
        }
        return { log: name, events, produceMs, join: summarize(joins), raw: summarize(raws) };
      } finally {
        await opened.close();
      }
    } catch (error) {
      throw new Error(`${name}: ${messageOf(error)}\n${service.logs.slice(-2_000)}`);
    } finally {
      await service.dispose();
    }
  }
}

/** The SQLite log (no `REDIS_URL`), then the Redis log (PostgreSQL + Redis), one service each. */
export async function measureJoinReplay(options: JoinReplayOptions): Promise<JoinReplayResult> {
  const sqlite = await measureLog(
    'SQLite (agent_run_events)',
    {},
    (service) => openSqliteRunLog(service.databaseFile),
    options,
  );
  const redis = await withPostgresAndRedis((postgres, server) =>
    postgres
      .createDatabase('join_replay')
      .then((url) =>
        measureLog(
          'Redis Streams (DATABASE_URL + REDIS_URL)',
          { DATABASE_URL: url, REDIS_URL: server.url },
          () => openRedisRunLog(server.url),
          options,
        ),
      ),
  );
  return { options, rows: [sqlite, redis] };
}

const perSecond = (events: number, ms: number) =>
  Math.round(events / (ms / 1000)).toLocaleString('en-US');

/** Per log: the join's time and throughput beside the raw read of the same log. */
export function joinReplayReport(result: JoinReplayResult): string {
  const { options, rows } = result;
  const table = renderTable(
    [
      { heading: 'log' },
      { heading: 'events', align: 'right' },
      { heading: 'run produced in', align: 'right' },
      { heading: 'HTTP join p50', align: 'right' },
      { heading: 'join events/s', align: 'right' },
      { heading: 'raw read p50', align: 'right' },
      { heading: 'raw events/s', align: 'right' },
      { heading: 'join / raw', align: 'right' },
    ],
    rows.map((r) => [
      r.log,
      r.events.toLocaleString('en-US'),
      formatMs(r.produceMs, 0),
      formatMs(r.join.p50, 1),
      perSecond(r.events, r.join.p50),
      formatMs(r.raw.p50, 1),
      perSecond(r.events, r.raw.p50),
      `${(r.join.p50 / r.raw.p50).toFixed(1)}x`,
    ]),
  );
  return [
    `(j) join replay throughput: one built service per log, a finished demo run (DEMO_REASONING_MS=0, DEMO_TOOL_MS=0) of at least`,
    `    ${options.events.toLocaleString('en-US')} events, joined from the start (GET /v1/runs/{threadId}/stream) from request to the terminal event, every`,
    `    id checked; beside it, the same log read in this process with the library's class in pages of ${options.pageSize.toLocaleString('en-US')} (no HTTP);`,
    `    p50 of ${options.joins} of each, interleaved, after one untimed`,
    '',
    table,
  ].join('\n');
}
