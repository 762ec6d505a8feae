import { performance } from 'node:perf_hooks';
import { withPostgresAndRedis } from './bench-services';
import { benchIdentity } from './bench-identity';
import { renderTable } from './bench-table';
import { putRunsInFlight } from './in-flight-runs';
import { InstancePair } from './instance-pair';
import { readPgStoredOutcome } from './pg-stored-outcome';
import type { RunStream } from './run-stream-client';
import { exitProblem, exitTimeCell, terminateAndTime } from './signalled-exit';
import type { StoredOutcome } from './stored-outcome';
import { endingsWithin, waitUntil } from './wait-until';
import type { PostgresServer, RedisServer } from 'dev-services';

/** The size, service settings and deadlines of the drain-modes benchmark. */
export interface DrainModesOptions {
  /** Runs in flight on the holder at SIGTERM. */
  runs: number;
  /** Demo reasoning time, far longer than the benchmark, so every run (and every continuation) is in flight. */
  reasoningMs: number;
  /** The holder's hard shutdown deadline (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs: number;
  /** How long the runs may take to all be in flight before the measurement is abandoned. */
  inFlightTimeoutMs: number;
  /** `auto`: how long after SIGTERM the survivor may take to continue every run. */
  continueDeadlineMs: number;
}

/** One measured setup: the resume mode, and whether a second instance is up to continue the runs. */
export interface DrainVariant {
  mode: 'auto' | 'client';
  survivor: boolean;
}

/** The setups, in order: auto with its survivor, the holder's own share of it (auto, alone), client. */
const VARIANTS: readonly DrainVariant[] = [
  { mode: 'auto', survivor: true },
  { mode: 'auto', survivor: false },
  { mode: 'client', survivor: true },
];

/** One setup's shutdown. */
export interface DrainModeRow {
  variant: DrainVariant;
  runs: number;
  inFlight: number;
  exitMs?: number;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stored: StoredOutcome;
  /** Clients whose stream ended with the handover notice, and with `RUN_INTERRUPTED`. */
  handovers: number;
  runInterrupted: number;
  /** `auto` with a survivor: threads it continued within the deadline; otherwise undefined (no instance continues them). */
  continued?: number;
  /** `auto` with a survivor: from SIGTERM to its last continuation, in ms. */
  lastContinuedMs?: number;
  /** Runs not continued (`auto` with a survivor), else runs not saved resumable (thread marked, run recorded interrupted). */
  lost: number;
  problems: string[];
}

/** What the drain-modes benchmark found. */
export interface DrainModesResult {
  options: DrainModesOptions;
  rows: DrainModeRow[];
}

const CONTINUING = 'continuing interrupted run';

/** The distinct threads the survivor has logged continuing, with the time of the last new one. */
function continuations(pair: InstancePair, prefix: string): { threads: number; lastAtMs?: number } {
  const firsts = new Map<string, number>();
  for (const { atMs, fields } of pair.survivorLines(CONTINUING)) {
    const threadId = String(fields.threadId);
    if (threadId.startsWith(prefix) && !firsts.has(threadId)) firsts.set(threadId, atMs);
  }
  return { threads: firsts.size, lastAtMs: firsts.size ? Math.max(...firsts.values()) : undefined };
}

const labelOf = (variant: DrainVariant) =>
  `${variant.mode}${variant.survivor ? '' : ', no survivor'}`;

async function measureVariant(
  variant: DrainVariant,
  postgres: PostgresServer,
  redis: RedisServer,
  options: DrainModesOptions,
): Promise<DrainModeRow> {
  const { mode } = variant;
  const label = labelOf(variant);
  const { env, token } = benchIdentity();
  const name = `drain_${mode}_${variant.survivor ? 'pair' : 'alone'}`;
  const settings = {
    ...env,
    RESUME_MODE: mode,
    SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
    SHUTDOWN_TIMEOUT_MS: String(options.shutdownTimeoutMs),
    DEMO_REASONING_MS: String(options.reasoningMs),
  };
  const pair = await InstancePair.start(postgres, redis, name, settings, variant.survivor);
  const prefix = name.replace(/_/g, '-');
  let streams: RunStream[] = [];
  try {
    const started = await putRunsInFlight(
      pair.holder,
      token,
      options.runs,
      prefix,
      options.inFlightTimeoutMs,
    );
    streams = started.streams;
    const deadlineMs = options.shutdownTimeoutMs + 10_000;
    const signalled = await terminateAndTime(pair.holder, deadlineMs);
    const { exit, exitMs, sentAtMs } = signalled;
    const { endings: results } = await endingsWithin(streams, 10_000);
    const problems: string[] = [];
    let continued: number | undefined;
    let lastContinuedMs: number | undefined;
    if (mode === 'auto' && variant.survivor) {
      const remaining = Math.max(0, options.continueDeadlineMs - (performance.now() - sentAtMs));
      await waitUntil(
        async () => (continuations(pair, prefix).threads >= options.runs ? true : undefined),
        'every run continued',
        remaining,
      ).catch((error: unknown) => problems.push(`${label}: ${String(error)}`));
      const seen = continuations(pair, prefix);
      continued = seen.threads;
      lastContinuedMs = seen.lastAtMs === undefined ? undefined : seen.lastAtMs - sentAtMs;
    }
    const stored = await readPgStoredOutcome(pair.databaseUrl);
    const lost = options.runs - (continued ?? stored.durable);
    const exitWrong = exitProblem('the holder', signalled, deadlineMs, pair.holder);
    if (exitWrong) problems.push(`${label}: ${exitWrong}`);
    if (lost > 0)
      problems.push(`${label}: ${lost} runs lost (${stored.runningRuns} recorded as running)`);
    return {
      variant,
      runs: options.runs,
      inFlight: started.inFlight,
      exitMs,
      exitCode: exit.code,
      exitSignal: exit.signal,
      stored,
      handovers: results.filter((r) => r.handedOver).length,
      runInterrupted: results.filter(
        (r) => r.terminal?.type === 'RUN_ERROR' && r.terminal.code === 'RUN_INTERRUPTED',
      ).length,
      continued,
      lastContinuedMs,
      lost,
      problems,
    };
  } finally {
    streams.forEach((s) => s.abort());
    await pair.dispose();
  }
}

/**
 * On one PostgreSQL and Redis, one setup after the other (see {@link VARIANTS}): `runs` runs in
 * flight on the holder, a real SIGTERM with no drain, the holder's exit timed; in `auto` with a
 * survivor, its continuations counted from its log.
 */
export async function measureDrainModes(options: DrainModesOptions): Promise<DrainModesResult> {
  return withPostgresAndRedis(async (postgres, redis) => {
    const rows: DrainModeRow[] = [];
    for (const variant of VARIANTS)
      rows.push(await measureVariant(variant, postgres, redis, options));
    return { options, rows };
  });
}

/** One row per resume mode, then the problems, if any. */
export function drainModesReport(result: DrainModesResult): string {
  const { options, rows } = result;
  const table = renderTable(
    [
      { heading: 'RESUME_MODE' },
      { heading: 'survivor' },
      { heading: 'runs', align: 'right' },
      { heading: 'in flight', align: 'right' },
      { heading: 'SIGTERM to exit', align: 'right' },
      { heading: 'exit code', align: 'right' },
      { heading: 'runs saved interrupted', align: 'right' },
      { heading: 'handover notices', align: 'right' },
      { heading: 'RUN_INTERRUPTED received', align: 'right' },
      { heading: 'continued / resumable', align: 'right' },
      { heading: 'last continued', align: 'right' },
      { heading: 'lost', align: 'right' },
    ],
    rows.map((r) => [
      r.variant.mode,
      r.variant.survivor ? 'yes' : 'no',
      String(r.runs),
      String(r.inFlight),
      exitTimeCell(r.exitMs),
      String(r.exitCode ?? r.exitSignal),
      String(r.stored.interruptedRuns),
      String(r.handovers),
      String(r.runInterrupted),
      String(r.continued ?? r.stored.durable),
      r.lastContinuedMs === undefined ? '-' : `${Math.round(r.lastContinuedMs)} ms`,
      String(r.lost),
    ]),
  );
  const problems = rows.flatMap((r) => r.problems);
  return [
    `(k) drain at scale, auto vs client: two built instances on one PostgreSQL + Redis, SHUTDOWN_DRAIN_TIMEOUT_MS=0,`,
    `    SHUTDOWN_TIMEOUT_MS=${options.shutdownTimeoutMs}, DEMO_REASONING_MS=${options.reasoningMs}; ${options.runs} runs (one per thread) in flight on the holder`,
    `    at SIGTERM; auto with a survivor: continued = threads the survivor continued (from its log, deadline ${options.continueDeadlineMs} ms`,
    `    after SIGTERM); otherwise resumable = thread interrupted with its marker and its run saved interrupted; the holder-alone`,
    `    auto row is the holder's own share of the auto exit, with nothing continuing the runs beside it`,
    '',
    table,
    ...(problems.length ? ['', 'PROBLEMS:', ...problems.map((p) => `- ${p}`)] : []),
  ].join('\n');
}
