import { withPostgresAndRedis } from './bench-services';
import { benchIdentity } from './bench-identity';
import { formatMs, summarize, type Summary } from './bench-stats';
import { renderTable } from './bench-table';
import {
  followAcrossInterruption,
  type ContinuedRun,
  type ContinuedRunClient,
} from './continued-run-client';
import { InstancePair } from './instance-pair';
import { newThreadInput } from './run-stream-client';
import { idSequenceProblem } from './run-id-audit';
import { exitProblem, exitTimeCell, terminateAndTime } from './signalled-exit';
import { firstEventLatencies } from './start-latency';
import { endingsWithin, waitUntil } from './wait-until';
import type { PostgresServer, RedisServer } from 'dev-services';

/** The runs, demo agent and deadlines of the handover-gap benchmark. */
export interface HandoverGapOptions {
  /** Runs per resume mode, all on the holder at once. */
  runs: number;
  /** Demo agent: tool rounds, reasoning time and tool time (`DEMO_STEPS`, `DEMO_REASONING_MS`, `DEMO_TOOL_MS`). */
  steps: number;
  reasoningMs: number;
  toolMs: number;
  /** SIGTERM goes out once every run has this many tool results. */
  toolResultsBeforeSignal: number;
  /** The holder's hard shutdown deadline (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs: number;
  /** How long the runs may take to reach the signal point, and then to complete, before the measurement is abandoned. */
  progressTimeoutMs: number;
  completionTimeoutMs: number;
}

/** One resume mode's numbers. */
export interface HandoverGapRow {
  mode: 'auto' | 'client';
  runs: number;
  /** Runs whose first connection ended with the handover notice or `RUN_INTERRUPTED`. */
  interrupted: number;
  /** Runs that reached `RUN_FINISHED` with ids 1…n, none lost or repeated. */
  completed: number;
  /** Gaps of the completed runs, in ms. */
  gap?: Summary;
  /** The same gaps, one per completed run, in ms: what the chart draws. */
  gapSamples: number[];
  exitMs?: number;
  exitCode: number | null;
  /** `client` only: the same number of new runs POSTed at once to the survivor once idle, request to first event, in ms. */
  baseline?: Summary;
  /** `client` only: the baseline's latencies, in ms. */
  baselineSamples?: number[];
  /** One line per run (or instance) that went wrong; any makes the section fail. */
  problems: string[];
}

/** What the handover-gap benchmark found. */
export interface HandoverGapResult {
  options: HandoverGapOptions;
  rows: HandoverGapRow[];
}

/** What went wrong with one client's run, or undefined. */
function runProblem(
  run: ContinuedRun,
  expectedEnding: 'handover' | 'interrupted',
): string | undefined {
  const at = `${run.threadId}:`;
  if (run.firstEnding !== expectedEnding)
    return `${at} first connection ended by ${run.firstEnding ?? 'nothing'}, expected ${expectedEnding}`;
  if (run.errors.length) return `${at} ${run.errors.join('; ')}`;
  if (run.terminal?.type !== 'RUN_FINISHED')
    return `${at} continuation ended with ${run.terminal ? JSON.stringify(run.terminal) : 'no terminal event'}`;
  const ids = idSequenceProblem(run.ids);
  return ids ? `${at} ${ids}` : undefined;
}

async function measureMode(
  mode: 'auto' | 'client',
  postgres: PostgresServer,
  redis: RedisServer,
  options: HandoverGapOptions,
): Promise<HandoverGapRow> {
  const { env, token } = benchIdentity();
  const pair = await InstancePair.start(postgres, redis, `handover_${mode}`, {
    ...env,
    RESUME_MODE: mode,
    SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
    SHUTDOWN_TIMEOUT_MS: String(options.shutdownTimeoutMs),
    DEMO_STEPS: String(options.steps),
    DEMO_REASONING_MS: String(options.reasoningMs),
    DEMO_TOOL_MS: String(options.toolMs),
  });
  const clients: ContinuedRunClient[] = [];
  try {
    for (let i = 0; i < options.runs; i++) {
      const input = newThreadInput(`gap-${mode}-${i}`, `run-${i}`, 'work');
      clients.push(followAcrossInterruption(pair.holder, pair.survivor, token, input));
    }
    await waitUntil(
      async () =>
        clients.every((c) => c.toolResults >= options.toolResultsBeforeSignal) ? true : undefined,
      `every run to have ${options.toolResultsBeforeSignal} tool result(s)`,
      options.progressTimeoutMs,
      5,
    );
    const deadlineMs = options.shutdownTimeoutMs + 10_000;
    const signalled = await terminateAndTime(pair.holder, deadlineMs);
    const { endings: runs, inTime } = await endingsWithin(clients, options.completionTimeoutMs);

    const expected = mode === 'auto' ? 'handover' : 'interrupted';
    const problems = runs
      .map((run) => runProblem(run, expected))
      .filter((p): p is string => p !== undefined);
    if (!inTime)
      problems.unshift(
        `not every run ended within ${options.completionTimeoutMs} ms of the signal`,
      );
    const exitWrong = exitProblem('the holder', signalled, deadlineMs, pair.holder);
    if (exitWrong) problems.push(exitWrong);
    const good = runs.filter((run) => !runProblem(run, expected));
    const baselineSamples =
      mode === 'client' && inTime
        ? await firstEventLatencies(
            pair.survivor,
            token,
            options.runs,
            'gap-baseline',
            options.completionTimeoutMs,
          )
        : undefined;
    const gapSamples = good.map((run) => run.gapMs ?? NaN);
    return {
      mode,
      runs: runs.length,
      interrupted: runs.filter((run) => run.firstEnding === expected).length,
      completed: good.length,
      gap: good.length ? summarize(gapSamples) : undefined,
      gapSamples,
      exitMs: signalled.exitMs,
      exitCode: signalled.exit.code,
      baseline: baselineSamples && summarize(baselineSamples),
      baselineSamples,
      problems: problems.map((p) => `${mode}: ${p}`),
    };
  } finally {
    clients.forEach((c) => c.abort());
    await pair.dispose();
  }
}

/**
 * Two instances on one PostgreSQL and Redis, `RESUME_MODE=auto` then `client`: the runs start on
 * the holder, which gets SIGTERM mid-run (no drain); every client continues on the survivor.
 */
export function measureHandoverGap(options: HandoverGapOptions): Promise<HandoverGapResult> {
  return withPostgresAndRedis(async (postgres, redis) => ({
    options,
    rows: [
      await measureMode('auto', postgres, redis, options),
      await measureMode('client', postgres, redis, options),
    ],
  }));
}

const HOW: Record<HandoverGapRow['mode'], string> = {
  auto: 'handover notice -> GET /stream, Last-Event-ID',
  client: 'RUN_INTERRUPTED -> same POST at once',
};

/** Per resume mode the gap's order statistics and the holder's exit, then the failed runs, if any. */
export function handoverGapReport(result: HandoverGapResult): string {
  const { options, rows } = result;
  const ms = (value: number | undefined) => (value === undefined ? '-' : formatMs(value, 1));
  const rowOf = (
    mode: string,
    how: string,
    gap: Summary | undefined,
    cells: { runs: string; interrupted: string; completed: string; exit: string; code: string },
  ) => [
    mode,
    how,
    cells.runs,
    cells.interrupted,
    cells.completed,
    ms(gap?.p50),
    ms(gap?.p99),
    ms(gap?.max),
    String(gap?.count ?? 0),
    cells.exit,
    cells.code,
  ];
  const baseline = rows.find((r) => r.baseline)?.baseline;
  const table = renderTable(
    [
      { heading: 'RESUME_MODE' },
      { heading: 'client continues on the survivor with' },
      { heading: 'runs', align: 'right' },
      { heading: 'interrupted', align: 'right' },
      { heading: 'completed', align: 'right' },
      { heading: 'gap p50', align: 'right' },
      { heading: 'gap p99', align: 'right' },
      { heading: 'gap max', align: 'right' },
      { heading: 'samples', align: 'right' },
      { heading: 'holder SIGTERM to exit', align: 'right' },
      { heading: 'exit code', align: 'right' },
    ],
    [
      ...rows.map((r) =>
        rowOf(r.mode, HOW[r.mode], r.gap, {
          runs: String(r.runs),
          interrupted: String(r.interrupted),
          completed: String(r.completed),
          exit: exitTimeCell(r.exitMs),
          code: String(r.exitCode),
        }),
      ),
      ...(baseline
        ? [
            rowOf('baseline', 'new runs POSTed at once, POST -> first event', baseline, {
              runs: String(baseline.count),
              interrupted: '-',
              completed: '-',
              exit: '-',
              code: '-',
            }),
          ]
        : []),
    ],
  );
  const problems = rows.flatMap((r) => r.problems);
  return [
    `(i) handover gap vs client retry: two built instances on one PostgreSQL + Redis, SHUTDOWN_DRAIN_TIMEOUT_MS=0; ${options.runs} runs per mode`,
    `    (DEMO_STEPS=${options.steps}, DEMO_REASONING_MS=${options.reasoningMs}, DEMO_TOOL_MS=${options.toolMs}) on the holder, SIGTERM once each has`,
    `    ${options.toolResultsBeforeSignal} tool result(s); gap = the notice's arrival at the client to the first event of the continuation`,
    `    on the survivor; completed = RUN_FINISHED with ids 1..n, none lost or repeated; baseline: as many new runs POSTed`,
    `    at once to the client-mode survivor once it is idle (no handover, no shutdown beside it), request to first event`,
    '',
    table,
    ...(problems.length ? ['', 'FAILURES:', ...problems.map((p) => `- ${p}`)] : []),
  ].join('\n');
}
