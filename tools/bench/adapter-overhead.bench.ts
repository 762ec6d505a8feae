import { randomUUID } from 'node:crypto';
// The handle and the store measured straight from the package's source.
import { RunControl } from '../../packages/nest-agent-graceful-shutdown/src/agent/run-control';
import { StopReason } from '../../packages/nest-agent-graceful-shutdown/src/agent/stop-reason';
import { driveRun } from '../../packages/nest-agent-graceful-shutdown/src/handle/drive-run';
import { DurableRunHandle } from '../../packages/nest-agent-graceful-shutdown/src/handle/durable-run-handle';
import type { DurableAgent } from '../../packages/nest-agent-graceful-shutdown/src/handle/run-handle.interface';
import { openSqliteStore } from '../../packages/nest-agent-graceful-shutdown/src/typeorm-store/sqlite-store.fixtures';
import { StoreCheckpointer } from '../../packages/nest-agent-graceful-shutdown/src/session/store-checkpointer';
import { summarize, timed } from './bench-stats';
import { formatMicros, renderTable } from './bench-table';
import { interleavedSamples, type InterleavedRuns } from './interleaved-samples';

/** How much work one framework's overhead measurement does: runs and warm-up runs per variant, and tool rounds per run. */
export interface AdapterOverheadOptions extends InterleavedRuns {
  /** Tool rounds per run (each round is one model call and one tool call; one more model call answers). */
  iterations: number;
}

/** One framework's agent on an instant model with a no-op tool: run plainly, and as the module runs it. */
export interface AdapterSubject {
  framework: string;
  /** One run with the framework alone. */
  plain(): Promise<void>;
  /** The same agent through the framework's adapter. */
  durable: DurableAgent;
}

/** Median and p90 of one variant, in microseconds. */
export interface OverheadTimings {
  medianRunMicros: number;
  p90RunMicros: number;
}

/** What one framework's measurement found. */
export interface AdapterOverheadResult {
  framework: string;
  options: AdapterOverheadOptions;
  stepsPerRun: number;
  plain: OverheadTimings;
  withModule: OverheadTimings;
}

/**
 * Runs the subject's agent plainly and under the module (adapter, run handle, checkpoints in the
 * embedded SQLite store), interleaved, and reports medians per run.
 */
export async function measureAdapterOverhead(
  subject: AdapterSubject,
  options: AdapterOverheadOptions,
): Promise<AdapterOverheadResult> {
  // The embedded file as the reference service opens it (write-ahead log, synchronous = NORMAL).
  const sqlite = await openSqliteStore({}, { asTheService: true });
  const micros = async (work: () => Promise<void>) => (await timed(work)).ms * 1000;
  const underModule = async (): Promise<number> => {
    const run = { threadId: randomUUID(), runId: 'run-1', runKey: randomUUID() };
    const user = { id: randomUUID(), role: 'user' as const, content: 'go' };
    await sqlite.store.startRun({
      ...run,
      ownerId: 'bench',
      instanceId: 'bench',
      messages: [user],
    });
    const handle = new DurableRunHandle({
      ...run,
      history: [user],
      hooks: [],
      control: new RunControl(),
      checkpointer: new StoreCheckpointer(sqlite.store, run),
      emit: () => undefined,
      toolTraits: (name) => subject.durable.toolTraits(name),
    });
    return micros(async () => {
      const outcome = await driveRun(subject.durable, handle);
      if (outcome.stopReason !== StopReason.Completed)
        throw new Error(
          `benchmark run ended with ${outcome.stopReason}: ${outcome.error?.message ?? ''}`,
        );
    });
  };
  const samples = await interleavedSamples(
    [() => micros(() => subject.plain()), underModule],
    options,
  ).finally(() => sqlite.close());
  const timings = (values: number[]): OverheadTimings => {
    const { p50, p90 } = summarize(values);
    return { medianRunMicros: p50, p90RunMicros: p90 };
  };
  return {
    framework: subject.framework,
    options,
    stepsPerRun: 2 * options.iterations + 1,
    plain: timings(samples[0]),
    withModule: timings(samples[1]),
  };
}

/** Every framework's result in one table: per step without and with the module, and the ratio. */
export function adapterOverheadReport(results: readonly AdapterOverheadResult[]): string {
  const [first] = results;
  const perStep = (r: AdapterOverheadResult, t: OverheadTimings) =>
    formatMicros(t.medianRunMicros / r.stepsPerRun, 1);
  const table = renderTable(
    [
      { heading: 'framework' },
      { heading: 'alone, per step', align: 'right' },
      { heading: 'with the module, per step', align: 'right' },
      { heading: 'p90 per run, alone / with', align: 'right' },
      { heading: 'overhead per step', align: 'right' },
      { heading: 'ratio', align: 'right' },
    ],
    results.map((r) => [
      r.framework,
      perStep(r, r.plain),
      perStep(r, r.withModule),
      `${formatMicros(r.plain.p90RunMicros, 0)} / ${formatMicros(r.withModule.p90RunMicros, 0)}`,
      formatMicros((r.withModule.medianRunMicros - r.plain.medianRunMicros) / r.stepsPerRun, 1),
      `${(r.withModule.medianRunMicros / r.plain.medianRunMicros).toFixed(2)}x`,
    ]),
  );
  return [
    `adapter overhead: each framework's agent on an instant model with a no-op tool, ${first?.options.iterations ?? 0} tool rounds per run`,
    `    (${first?.stepsPerRun ?? 0} steps: model calls and tool calls), alone and through its adapter with checkpoints in SQLite`,
    '    (write-ahead log, synchronous = NORMAL, as the reference service opens its file);',
    `    ${first?.options.runs ?? 0} measured runs per variant, interleaved, after ${first?.options.warmupRuns ?? 0} warm-up runs; medians`,
    '',
    table,
  ].join('\n');
}
