import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  groupsLine,
  profileGroups,
  readCpuProfile,
  SHUTDOWN_GROUPS,
  type GroupShare,
} from './cpu-profile-groups';
import { measureAbortFloor, type AbortFloor } from './abort-floor';
import { benchIdentity } from './bench-identity';
import { renderTable } from './bench-table';
import { addRunsInFlight } from './in-flight-runs';
import { readPgStoredOutcome } from './pg-stored-outcome';
import { postgresWriteFloor, sqliteWriteFloor, type WriteFloor } from './raw-write-floor';
import type { RunStream } from './run-stream-client';
import { exitProblem, exitTimeCell, terminateAndTime } from './signalled-exit';
import { SpawnedService } from './spawned-service';
import { readStoredOutcome, type StoredOutcome } from './stored-outcome';
import { endingsWithin } from './wait-until';
import { MemoryProbe, memorySlopes, type MemoryStep } from './service-memory';

/** The service settings and deadlines of the shutdown benchmark. */
export interface ShutdownAtScaleOptions {
  /** Demo reasoning time, far longer than the benchmark, so every run is in flight at the signal. */
  reasoningMs: number;
  /** The service's hard shutdown deadline (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs: number;
  /** How long the runs may take to all be in flight before the measurement is abandoned. */
  inFlightTimeoutMs: number;
  /** Runs sent per wave while they are put in flight. */
  waveSize: number;
  /** In-flight counts at which the largest size reads the service's memory (after a forced gc). */
  memorySteps: number[];
  /** Target of SIGTERM-to-exit over the raw write floor. */
  targetRatio: number;
  /**
   * The service's lease on each thread (`LEASE_TTL_MS`): longer than the default 15 s, so a
   * renewal round delayed while ten thousand runs are being started on a loaded machine does
   * not take runs away before the signal.
   */
  leaseTtlMs: number;
  /** With `--profile`: each service runs under `node --cpu-prof`, its profile written in a folder of this one per measurement. */
  cpuProfileDir?: string;
}

/** How many of the runs keep their SSE stream open until the signal. */
export type KeptStreams = 'all' | number;

/** Where the service keeps its sessions: its own SQLite file, or a PostgreSQL database of this run. */
export type ShutdownStore = { kind: 'sqlite' } | { kind: 'postgres'; databaseUrl: string };

/** What one shutdown with `runs` runs in flight came to. */
export interface ShutdownAtScaleResult {
  store: ShutdownStore['kind'];
  runs: number;
  /** Streams still open at the signal; the other runs went on without their client (`RUN_ON_DISCONNECT=continue`). */
  streams: number;
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
  /** One raw batched write of the same interrupted states, same database, after the exit. */
  floor?: WriteFloor;
  /** Aborting `runs` pending calls in a fresh process of the same Node, nothing else (see `measureAbortFloor`). */
  abortFloor?: AbortFloor;
  /** Sizes of the transactions the service saved run ends in (its `run ends saved` lines). */
  batches: number[];
  /** Memory at each of `memorySteps` (largest size only). */
  memory: MemoryStep[];
  /** Where the shutdown's CPU time went (from the first stop request to the exit), when profiled. */
  profile?: { dir: string; shares: GroupShare[] };
  /** Anything that makes this measurement a failure, in words. */
  problems: string[];
}

// Built beside this file in dist-tools; preloaded into the service to read its memory.
const PROBE = resolve(__dirname, 'memory-probe.js');

/**
 * Starts the built service with no drain budget, puts `runs` runs on distinct threads in
 * flight, keeps `kept` of their SSE streams open (the others are dropped once their run is in
 * flight, and the runs go on), sends a real SIGTERM and measures until the process has exited;
 * then checks in the store that every run was saved as interrupted with its marker, and times
 * one raw batched write of the same states there (the floor).
 */
export async function measureShutdownAtScale(
  runs: number,
  options: ShutdownAtScaleOptions,
  store: ShutdownStore,
  kept: KeptStreams = 'all',
): Promise<ShutdownAtScaleResult> {
  const { env, token } = benchIdentity();
  const batches: number[] = [];
  const probe = new MemoryProbe();
  const onLine = (line: string) => {
    probe.read(line);
    if (line.includes('"run ends saved"'))
      batches.push(Number((JSON.parse(line) as { runs?: number }).runs ?? 0));
  };
  const profileDir =
    options.cpuProfileDir && join(options.cpuProfileDir, `${store.kind}-${runs}-${kept}-streams`);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const service = await SpawnedService.start(
    {
      ...env,
      // The client-resume shutdown is measured: on PostgreSQL alone the default would be `auto` (handover).
      ...(store.kind === 'postgres'
        ? { DATABASE_URL: store.databaseUrl, RESUME_MODE: 'client' }
        : {}),
      SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
      SHUTDOWN_TIMEOUT_MS: String(options.shutdownTimeoutMs),
      DEMO_REASONING_MS: String(options.reasoningMs),
      MAX_RUNS_PER_USER: String(runs * 2),
      LEASE_TTL_MS: String(options.leaseTtlMs),
      RUN_ON_DISCONNECT: 'continue',
    },
    60_000,
    onLine,
    [
      '--expose-gc',
      '--require',
      PROBE,
      ...(profileDir
        ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=500']
        : []),
    ],
  );
  const streams: RunStream[] = [];
  const memory: MemoryStep[] = [];
  try {
    const measureMemory = runs === Math.max(...options.memorySteps);
    const steps = measureMemory ? options.memorySteps : [runs];
    let inFlight = 0;
    for (const step of steps) {
      const range = { from: streams.length, to: step, waveSize: options.waveSize };
      if (step > streams.length)
        inFlight = await addRunsInFlight(
          service,
          token,
          range,
          `bench-${runs}`,
          streams,
          options.inFlightTimeoutMs,
        );
      // Dropped once in flight; the service sees the disconnects while the next wave starts (or the memory is read).
      if (kept !== 'all') streams.slice(kept).forEach((stream) => stream.abort());
      if (measureMemory) memory.push({ runs: step, bytes: await probe.sample(service) });
    }
    const deadlineMs = options.shutdownTimeoutMs + 10_000;
    const signalled = await terminateAndTime(service, deadlineMs);
    const { exit, exitMs } = signalled;
    // Once the process is gone every socket is closed, so the streams end almost at once.
    const open = kept === 'all' ? streams : streams.slice(0, kept);
    const { endings: results } = await endingsWithin(open, 10_000);
    const runInterrupted = results.filter(
      (r) => r.terminal?.type === 'RUN_ERROR' && r.terminal.code === 'RUN_INTERRUPTED',
    ).length;

    const stored =
      store.kind === 'postgres'
        ? await readPgStoredOutcome(store.databaseUrl)
        : readStoredOutcome(service.databaseFile);
    const lost = runs - stored.durable;
    const problems: string[] = [];
    const exitWrong = exitProblem('the process', signalled, deadlineMs, service);
    if (exitWrong) problems.push(`${store.kind} N=${runs}: ${exitWrong}`);
    if (lost > 0)
      problems.push(
        `${store.kind} N=${runs}: ${lost} runs lost (${stored.runningRuns} still recorded as running)`,
      );
    const floor =
      store.kind === 'postgres'
        ? await postgresWriteFloor(store.databaseUrl)
        : sqliteWriteFloor(service.databaseFile);
    const abortFloor = await measureAbortFloor(runs);
    return {
      store: store.kind,
      runs,
      streams: open.length,
      inFlight,
      exitMs,
      exitCode: exit.code,
      exitSignal: exit.signal,
      stored,
      lost,
      runInterrupted,
      floor,
      abortFloor,
      batches,
      memory,
      ...(profileDir && exitMs !== undefined
        ? {
            profile: {
              dir: profileDir,
              shares: profileGroups(
                readCpuProfile(profileDir),
                SHUTDOWN_GROUPS,
                'interruptRemaining',
              ),
            },
          }
        : {}),
      problems,
    };
  } finally {
    streams.forEach((s) => s.abort());
    await service.dispose();
  }
}

// A floor that did not rewrite every run (some were lost) is no floor of this shutdown.
const ratioOf = (r: ShutdownAtScaleResult) =>
  r.exitMs !== undefined && r.floor?.rows === r.runs ? r.exitMs / r.floor.medianMs : undefined;
/** SIGTERM to exit over the two floors together: the least a Node service pays to abort the runs' calls and write their states. */
const bothRatioOf = (r: ShutdownAtScaleResult) =>
  r.exitMs !== undefined && r.floor?.rows === r.runs && r.abortFloor
    ? r.exitMs / (r.floor.medianMs + r.abortFloor.medianMs)
    : undefined;
const ratioCell = (ratio: number | undefined) =>
  ratio === undefined ? '-' : `${ratio.toFixed(1)}x`;

/** One row per store and N, the memory steps, then the problems, if any (`failures`: measurements that could not be made). */
export function shutdownAtScaleReport(
  results: readonly ShutdownAtScaleResult[],
  options: ShutdownAtScaleOptions,
  failures: readonly string[] = [],
): string {
  const table = renderTable(
    [
      { heading: 'store', align: 'left' },
      { heading: 'N runs', align: 'right' },
      { heading: 'open streams', align: 'right' },
      { heading: 'raw write floor', align: 'right' },
      { heading: 'abort floor', align: 'right' },
      { heading: 'SIGTERM to exit', align: 'right' },
      { heading: 'ratio', align: 'right' },
      { heading: 'ratio to both floors', align: 'right' },
      { heading: 'exit code', align: 'right' },
      { heading: 'save batches', align: 'right' },
      { heading: 'durable', align: 'right' },
      { heading: 'lost', align: 'right' },
      { heading: 'RUN_INTERRUPTED received', align: 'right' },
    ],
    results.map((r) => [
      r.store,
      String(r.runs),
      String(r.streams),
      r.floor?.rows === r.runs ? `${Math.round(r.floor.medianMs)} ms` : '-',
      r.abortFloor ? `${Math.round(r.abortFloor.medianMs)} ms` : '-',
      exitTimeCell(r.exitMs),
      ratioCell(ratioOf(r)),
      ratioCell(bothRatioOf(r)),
      String(r.exitCode ?? r.exitSignal),
      `${r.batches.length} (largest ${Math.max(0, ...r.batches)})`,
      String(r.stored.durable),
      String(r.lost),
      String(r.runInterrupted),
    ]),
  );
  const memory = results
    .filter((r) => r.memory.length > 1)
    .map((r) => `memory, ${r.store}, ${r.streams} open streams: ${memorySlopes(r.memory)}`);
  const profiles = results.flatMap((r) =>
    r.profile
      ? [
          `profile, ${r.store} N=${r.runs}, ${r.streams} open streams: ${groupsLine(r.profile.shares)} (${r.profile.dir})`,
        ]
      : [],
  );
  const problems = [...results.flatMap((r) => r.problems), ...failures];
  const met = results.every((r) => (ratioOf(r) ?? Infinity) <= options.targetRatio);
  return [
    `(b) shutdown at scale: built service, SHUTDOWN_DRAIN_TIMEOUT_MS=0, SHUTDOWN_TIMEOUT_MS=${options.shutdownTimeoutMs},`,
    `    DEMO_REASONING_MS=${options.reasoningMs}, LEASE_TTL_MS=${options.leaseTtlMs}; one run per thread, all in flight at SIGTERM,`,
    `    with every SSE stream open or only a few (the rest dropped once in flight, RUN_ON_DISCONNECT=continue);`,
    `    floor = one raw batched write of the same interrupted states (BEGIN to COMMIT, median of 3, same database, after the exit);`,
    `    abort floor = aborting N pending AbortSignal-aware calls in a fresh process of the same Node, until all settled (median of 3)`,
    '',
    table,
    '',
    ...memory,
    ...profiles,
    `ratio target <= ${options.targetRatio}x: ${met ? 'met' : 'MISSED'}`,
    ...(problems.length ? ['', 'PROBLEMS:', ...problems.map((p) => `- ${p}`)] : []),
  ].join('\n');
}
