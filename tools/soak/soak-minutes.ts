import type { HeapAfterGc, SoakSample } from './soak-sample';

/** One minute of the soak, as the report's table and the chart show it. */
export interface SoakMinute {
  /** 1 for the first minute (0 to 60 s), 2 for the next, … */
  minute: number;
  /** Runs the store recorded completed in this minute (undefined: not read). */
  runsCompleted?: number;
  /** Turns the clients saw completed, and cancelled, in this minute. */
  turnsCompleted: number;
  turnsCancelled: number;
  /** Means of the minute's samples (undefined: none read). */
  rssMb?: number;
  heapUsedMb?: number;
  /** Mean heap after the minute's full collections, in MB. */
  heapAfterGcMb?: number;
  handles?: number;
  /** The most sessions on the database seen in the minute. */
  dbConnectionsMax?: number;
  /** The worst event-loop lag p99 of the minute's scrapes, in ms. */
  lagP99Ms?: number;
  /** The machine's mean 1-minute load average over the minute's samples. */
  load1?: number;
  /** SIGTERMs sent in this minute. */
  restarts: number;
  /** The instance lives sampled in this minute. */
  lives: number[];
}

const MB = 1024 * 1024;

/**
 * Folds the samples into minutes since the soak began: run and turn counts as the difference
 * between the last cumulative count of the minute and of the minute before; memory and handles as
 * means (the heap after full collections as the mean of the minute's `gcs`); database sessions and lag as the minute's worst. `restartsAtMs` are the SIGTERMs' times.
 * Minutes without a sample still get a row, so the table has no gaps.
 *
 * @example
 * perMinute(samples, [240_000], 15); // 15 rows, minute 5 with restarts: 1
 */
export function perMinute(
  samples: readonly SoakSample[],
  restartsAtMs: readonly number[],
  minutes: number,
  gcs: readonly HeapAfterGc[] = [],
): SoakMinute[] {
  const sorted = [...samples].sort((a, b) => a.atMs - b.atMs);
  const cumulativeBefore = (
    ms: number,
  ): { completed: number; cancelled: number; runs?: number } => {
    let last: SoakSample | undefined;
    let runs: number | undefined;
    for (const s of sorted) {
      if (s.atMs >= ms) break;
      last = s;
      runs = s.runsCompleted ?? runs;
    }
    return {
      completed: last?.turnsCompleted ?? 0,
      cancelled: last?.turnsCancelled ?? 0,
      runs: last ? runs : 0,
    };
  };
  const rows: SoakMinute[] = [];
  for (let minute = 1; minute <= minutes; minute++) {
    const from = (minute - 1) * 60_000;
    const to = minute * 60_000;
    const inMinute = sorted.filter((s) => s.atMs >= from && s.atMs < to);
    const [before, after] = [cumulativeBefore(from), cumulativeBefore(to)];
    rows.push({
      minute,
      runsCompleted:
        after.runs === undefined || before.runs === undefined
          ? undefined
          : after.runs - before.runs,
      turnsCompleted: after.completed - before.completed,
      turnsCancelled: after.cancelled - before.cancelled,
      rssMb: scaled(meanOf(inMinute.map((s) => s.rssBytes)), MB),
      heapUsedMb: scaled(meanOf(inMinute.map((s) => s.heapUsedBytes)), MB),
      heapAfterGcMb: meanOf(
        gcs.filter((gc) => gc.atMs >= from && gc.atMs < to).map((gc) => gc.afterMb),
      ),
      handles: meanOf(inMinute.map((s) => s.handles)),
      dbConnectionsMax: maxOf(inMinute.map((s) => s.dbConnections)),
      lagP99Ms: scaled(maxOf(inMinute.map((s) => s.lagP99Seconds)), 1 / 1000),
      load1: meanOf(inMinute.map((s) => s.load1)),
      restarts: restartsAtMs.filter((at) => at >= from && at < to).length,
      lives: [...new Set(inMinute.map((s) => s.life))],
    });
  }
  return rows;
}

function present(values: readonly (number | undefined)[]): number[] {
  return values.filter((v): v is number => v !== undefined && Number.isFinite(v));
}

function meanOf(values: readonly (number | undefined)[]): number | undefined {
  const known = present(values);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : undefined;
}

function maxOf(values: readonly (number | undefined)[]): number | undefined {
  const known = present(values);
  return known.length ? Math.max(...known) : undefined;
}

function scaled(value: number | undefined, unit: number): number | undefined {
  return value === undefined ? undefined : value / unit;
}
