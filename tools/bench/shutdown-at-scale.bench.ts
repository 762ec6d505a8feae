import { benchIdentity } from './bench-identity';
import { renderTable } from './bench-table';
import { putRunsInFlight } from './in-flight-runs';
import type { RunStream } from './run-stream-client';
import { exitProblem, exitTimeCell, terminateAndTime } from './signalled-exit';
import { SpawnedService } from './spawned-service';
import { readStoredOutcome, type StoredOutcome } from './stored-outcome';
import { endingsWithin } from './wait-until';

/** The service settings and deadlines of the shutdown benchmark. */
export interface ShutdownAtScaleOptions {
  /** Demo reasoning time, far longer than the benchmark, so every run is in flight at the signal. */
  reasoningMs: number;
  /** The service's hard shutdown deadline (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs: number;
  /** How long the runs may take to all be in flight before the measurement is abandoned. */
  inFlightTimeoutMs: number;
}

/** What one shutdown with `runs` runs in flight came to. */
export interface ShutdownAtScaleResult {
  runs: number;
  inFlight: number;
  /** From SIGTERM sent to process exit seen; undefined if it had not exited by the deadline. */
  exitMs?: number;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stored: StoredOutcome;
  /** Runs whose interruption is not durable: `runs` − `stored.durable`. */
  lost: number;
  /** Clients whose stream ended with `RUN_ERROR` code `RUN_INTERRUPTED`. */
  runInterrupted: number;
  /** Anything that makes this measurement a failure, in words. */
  problems: string[];
}

/**
 * Starts the built service with no drain budget, puts `runs` runs on distinct threads in
 * flight, sends a real SIGTERM and measures until the process has exited; then checks in
 * the store that every run was saved as interrupted with its marker, i.e. can resume.
 */
export async function measureShutdownAtScale(runs: number, options: ShutdownAtScaleOptions): Promise<ShutdownAtScaleResult> {
  const { env, token } = benchIdentity();
  const service = await SpawnedService.start({
    ...env,
    SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
    SHUTDOWN_TIMEOUT_MS: String(options.shutdownTimeoutMs),
    DEMO_REASONING_MS: String(options.reasoningMs),
  });
  let streams: RunStream[] = [];
  try {
    const started = await putRunsInFlight(service, token, runs, `bench-${runs}`, options.inFlightTimeoutMs);
    streams = started.streams;
    const deadlineMs = options.shutdownTimeoutMs + 10_000;
    const signalled = await terminateAndTime(service, deadlineMs);
    const { exit, exitMs } = signalled;
    // Once the process is gone every socket is closed, so the streams end almost at once.
    const { endings: results } = await endingsWithin(streams, 10_000);
    const runInterrupted = results.filter((r) => r.terminal?.type === 'RUN_ERROR' && r.terminal.code === 'RUN_INTERRUPTED').length;

    const stored = readStoredOutcome(service.databaseFile);
    const lost = runs - stored.durable;
    const problems: string[] = [];
    const exitWrong = exitProblem('the process', signalled, deadlineMs, service);
    if (exitWrong) problems.push(`N=${runs}: ${exitWrong}`);
    if (lost > 0) problems.push(`N=${runs}: ${lost} runs lost (${stored.runningRuns} still recorded as running)`);
    return { runs, inFlight: started.inFlight, exitMs, exitCode: exit.code, exitSignal: exit.signal, stored, lost, runInterrupted, problems };
  } finally {
    streams.forEach((s) => s.abort());
    await service.dispose();
  }
}

/** One row per N, then the problems, if any, including measurements that could not be made (`failures`). */
export function shutdownAtScaleReport(results: readonly ShutdownAtScaleResult[], options: ShutdownAtScaleOptions, failures: readonly string[] = []): string {
  const table = renderTable(
    [
      { heading: 'N runs', align: 'right' },
      { heading: 'in flight', align: 'right' },
      { heading: 'SIGTERM to exit', align: 'right' },
      { heading: 'exit code', align: 'right' },
      { heading: 'threads interrupted', align: 'right' },
      { heading: 'runs interrupted', align: 'right' },
      { heading: 'durable', align: 'right' },
      { heading: 'lost', align: 'right' },
      { heading: 'RUN_INTERRUPTED received', align: 'right' },
    ],
    results.map((r) => [
      String(r.runs),
      String(r.inFlight),
      exitTimeCell(r.exitMs),
      String(r.exitCode ?? r.exitSignal),
      String(r.stored.interruptedThreads),
      String(r.stored.interruptedRuns),
      String(r.stored.durable),
      String(r.lost),
      String(r.runInterrupted),
    ]),
  );
  const problems = [...results.flatMap((r) => r.problems), ...failures];
  return [
    `(b) shutdown at scale: built service, SQLite store, SHUTDOWN_DRAIN_TIMEOUT_MS=0,`,
    `    SHUTDOWN_TIMEOUT_MS=${options.shutdownTimeoutMs}, DEMO_REASONING_MS=${options.reasoningMs}; one run per thread, all in flight at SIGTERM`,
    '',
    table,
    ...(problems.length ? ['', 'PROBLEMS:', ...problems.map((p) => `- ${p}`)] : []),
  ].join('\n');
}
