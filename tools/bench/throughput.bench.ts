import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConsoleLogger, Logger } from '@nestjs/common';
import type { PostgresServer } from 'dev-services';
import { withPostgresServer } from './bench-services';
import { messageOf, SILENT_LOGGER, summarize, type Summary } from './bench-stats';
import { withCpuProfile } from './cpu-profile';
import { PgWireCounter } from './pg-wire-counter';
import { postgresCpuMicros } from './postgres-cpu';
import { stepTimes, timeRun } from './step-clock';
import {
  throughputSubjects,
  type SubjectCase,
  type SubjectKind,
  type ThroughputSubject,
} from './throughput-subjects';

/** The sizes of the throughput benchmark. */
export interface ThroughputOptions {
  /** Runs in flight at once, smallest first. */
  concurrencies: readonly number[];
  /** Steps per run: each a model call and a call of the no-op tool (one more model call answers). */
  stepsPerRun: number;
  /** Measured runs per case: at least this many, and at least one per run in flight. */
  minRunsPerCase: number;
  /** Unmeasured runs per case first (the same database), 10 at once at most. */
  warmupRuns: number;
  /** Subjects to measure, by name (see `throughputSubjects`); all when unset. */
  subjects?: readonly string[];
  /** A `.cpuprofile` of one extra wave of the largest concurrency of this subject, written to `path`. */
  profile?: { subject: string; path: string };
}

/** One subject at one concurrency. */
export interface ThroughputRow {
  subject: string;
  framework: string;
  kind: SubjectKind;
  concurrency: number;
  runs: number;
  steps: number;
  elapsedMs: number;
  stepsPerSecond: number;
  /** Time between consecutive tool calls of a run, in ms. */
  stepMs: Summary;
  /** Per step, the time it waited on its durable writes, in ms; undefined where writes do not hold steps. */
  writeWaitMs?: Summary;
  roundTripsPerStep: number;
  bytesPerStep: number;
  /** The bench process's CPU (user + system) per step, in µs. */
  cpuMicrosPerStep: number;
  /** The PostgreSQL cluster's CPU per step, in µs; undefined where `/proc` cannot be read. */
  postgresCpuMicrosPerStep?: number;
}

/** What the throughput benchmark found: a row per measured case, and the cases that failed. */
export interface ThroughputResult {
  options: ThroughputOptions;
  rows: ThroughputRow[];
  failures: string[];
  /** Where the CPU profile was written. */
  profilePath?: string;
}

/** Runs `total` runs with `concurrency` in flight at once: each worker starts the next run as soon as its last ended. */
async function runMany(
  concurrency: number,
  total: number,
  run: () => Promise<void>,
): Promise<void> {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await run();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

/** Measures one case: warm-up runs, then the measured runs with their steps timed and their costs read before and after. */
async function measureCase(
  subject: ThroughputSubject,
  opened: SubjectCase,
  concurrency: number,
  options: ThroughputOptions,
  postgres: PostgresServer,
): Promise<ThroughputRow> {
  const wire = PgWireCounter.install();
  const dataDir = join(postgres.dir, 'data');
  await runMany(Math.min(10, options.warmupRuns), options.warmupRuns, () => opened.run());
  const runs = Math.max(concurrency, options.minRunsPerCase);
  const samples: number[] = [];
  const waits: number[] = [];
  const timedRun = async () => {
    const { toolCalls, writeWaits } = await timeRun(() => opened.run());
    if (toolCalls.length !== options.stepsPerRun)
      throw new Error(`a run made ${toolCalls.length} tool calls, not ${options.stepsPerRun}`);
    samples.push(...stepTimes(toolCalls));
    waits.push(...writeWaits);
  };
  const wireBefore = wire.read();
  const cpuBefore = process.cpuUsage();
  const postgresBefore = postgresCpuMicros(dataDir);
  const startedAt = performance.now();
  await runMany(concurrency, runs, timedRun);
  const elapsedMs = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuBefore);
  const postgresAfter = postgresCpuMicros(dataDir);
  const { roundTrips, bytes } = wire.since(wireBefore);
  const steps = runs * options.stepsPerRun;
  return {
    subject: subject.name,
    framework: subject.framework,
    kind: subject.kind,
    concurrency,
    runs,
    steps,
    elapsedMs,
    stepsPerSecond: steps / (elapsedMs / 1000),
    stepMs: summarize(samples),
    writeWaitMs: subject.writesHoldSteps ? summarize(waits) : undefined,
    roundTripsPerStep: roundTrips / steps,
    bytesPerStep: bytes / steps,
    cpuMicrosPerStep: (cpu.user + cpu.system) / steps,
    postgresCpuMicrosPerStep:
      postgresBefore === undefined || postgresAfter === undefined
        ? undefined
        : (postgresAfter - postgresBefore) / steps,
  };
}

/**
 * Every subject at every concurrency on one PostgreSQL server of this run, a fresh database
 * per case; concurrencies in turn, every subject at each, so drift spreads over all subjects.
 * A case that fails is a failure line, and the others go on.
 */
export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputResult> {
  // Before any connection opens, so every client's bytes are counted from its first query.
  PgWireCounter.install();
  const subjects = throughputSubjects().filter(
    (s) => !options.subjects || options.subjects.includes(s.name),
  );
  const rows: ThroughputRow[] = [];
  const failures: string[] = [];
  let profilePath: string | undefined;
  const largest = Math.max(...options.concurrencies);
  // The store's own log lines (a line per group-committed batch of run ends) would interleave with the tables.
  Logger.overrideLogger(SILENT_LOGGER);
  await withPostgresServer(async (postgres) => {
    for (const concurrency of options.concurrencies) {
      for (const subject of subjects) {
        try {
          const opened = await subject.open(options.stepsPerRun, postgres);
          try {
            rows.push(await measureCase(subject, opened, concurrency, options, postgres));
            if (options.profile?.subject === subject.name && concurrency === largest) {
              await withCpuProfile(options.profile.path, () =>
                runMany(concurrency, concurrency, () => opened.run()),
              );
              profilePath = options.profile.path;
            }
          } finally {
            await opened.close();
          }
        } catch (error) {
          failures.push(
            `${subject.name} at ${concurrency} runs at once: measurement failed: ${messageOf(error)}`,
          );
        }
      }
    }
  }).finally(() => Logger.overrideLogger(new ConsoleLogger()));
  return { options, rows, failures, profilePath };
}
