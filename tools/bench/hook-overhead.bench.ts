import { performance } from 'node:perf_hooks';
// The runtime, the hook and the run registry measured straight from the package's source:
// the runtime and the registry are internals, not part of its public entry.
import type { AgentHook } from '../../packages/nest-agent-graceful-shutdown/src/agent/agent-hook.interface';
import { StopReason } from '../../packages/nest-agent-graceful-shutdown/src/agent/stop-reason';
import {
  GracefulShutdownHook,
  type RunFinalizer,
} from '../../packages/nest-agent-graceful-shutdown/src/shutdown/graceful-shutdown.hook';
import { ShutdownCoordinator } from '../../packages/nest-agent-graceful-shutdown/src/shutdown/shutdown-coordinator.service';
import { InProcessSignalBus } from '../../packages/nest-agent-graceful-shutdown/src/signals/in-process-signal-bus';
import { AgentRuntime } from '../../packages/nest-agent-graceful-shutdown/src/runtime/agent-runtime';
import { RunControl } from '../../packages/nest-agent-graceful-shutdown/src/agent/run-control';
import { resolveShutdownOptions } from '../../packages/nest-agent-graceful-shutdown/src/options/resolve-shutdown-options';
import { InFlightRunRegistry } from '../../packages/nest-agent-graceful-shutdown/src/lifecycle/in-flight-run.registry';
import { summarize } from './bench-stats';
import { formatMicros, renderTable } from './bench-table';
import { interleavedSamples, type InterleavedRuns } from './interleaved-samples';
import {
  NOOP_HISTORY,
  hookEventsPerRun,
  noopAgent,
  noopCheckpointer,
  noopEmit,
} from './noop-agent';

/** How much work the hook-overhead benchmark does: runs and warm-up runs per variant, and tool rounds per run. */
export interface HookOverheadOptions extends InterleavedRuns {
  /** Tool rounds per run. */
  iterations: number;
}

/** Timings of one variant, in microseconds. */
export interface VariantTimings {
  medianRunMicros: number;
  p90RunMicros: number;
  medianEventMicros: number;
}

/** What the hook-overhead benchmark found. */
export interface HookOverheadResult {
  options: HookOverheadOptions;
  eventsPerRun: number;
  withoutHooks: VariantTimings;
  withModuleHooks: VariantTimings;
}

type HookFactory = () => AgentHook[];

/**
 * The hooks the module installs into a run, wired as in the service: one registry,
 * coordinator and signal bus shared by all runs, a fresh hook per run.
 */
function moduleHooks(): { make: HookFactory; registry: InFlightRunRegistry } {
  const registry = new InFlightRunRegistry();
  const coordinator = new ShutdownCoordinator(resolveShutdownOptions({}), registry);
  const signals = new InProcessSignalBus();
  const finalizer: RunFinalizer = { finalize: async () => undefined };
  return {
    make: () => [new GracefulShutdownHook({ registry, coordinator, signals, finalizer })],
    registry,
  };
}

/**
 * Runs the same no-op agent with no hooks and with the module's hooks, alternating which
 * goes first on each repetition so drift in machine load hits both alike, and reports
 * medians because other work on the machine makes the mean meaningless.
 */
export async function measureHookOverhead(
  options: HookOverheadOptions,
): Promise<HookOverheadResult> {
  const runtime = new AgentRuntime(noopAgent(options.iterations));
  const installed = moduleHooks();
  let sequence = 0;

  const timeOne = async (hooks: HookFactory): Promise<number> => {
    const runId = `run-${sequence++}`;
    const started = performance.now();
    const outcome = await runtime.execute(
      { threadId: 'bench-thread', runId, history: NOOP_HISTORY },
      { hooks: hooks(), control: new RunControl(), checkpointer: noopCheckpointer, emit: noopEmit },
    );
    const elapsedMs = performance.now() - started;
    if (outcome.stopReason !== StopReason.Completed) {
      throw new Error(
        `benchmark run ended with ${outcome.stopReason} instead of completed: ${outcome.error?.message ?? ''}`,
      );
    }
    return elapsedMs * 1000;
  };

  const samples = await interleavedSamples(
    [() => timeOne(() => []), () => timeOne(installed.make)],
    options,
  );
  if (installed.registry.size !== 0)
    throw new Error(`${installed.registry.size} benchmark runs were left registered in flight`);

  const eventsPerRun = hookEventsPerRun(options.iterations);
  const timings = (values: number[]): VariantTimings => {
    const { p50, p90 } = summarize(values);
    return { medianRunMicros: p50, p90RunMicros: p90, medianEventMicros: p50 / eventsPerRun };
  };
  return {
    options,
    eventsPerRun,
    withoutHooks: timings(samples[0]),
    withModuleHooks: timings(samples[1]),
  };
}

/** The result as a table plus the two derived figures: ratio and absolute overhead per event. */
export function hookOverheadReport(result: HookOverheadResult): string {
  const { options, eventsPerRun, withoutHooks, withModuleHooks } = result;
  const row = (name: string, t: VariantTimings) => [
    name,
    String(options.runs),
    formatMicros(t.medianRunMicros, 1),
    formatMicros(t.p90RunMicros, 1),
    formatMicros(t.medianEventMicros, 3),
  ];
  const table = renderTable(
    [
      { heading: 'variant' },
      { heading: 'runs', align: 'right' },
      { heading: 'median per run', align: 'right' },
      { heading: 'p90 per run', align: 'right' },
      { heading: 'median per hook event', align: 'right' },
    ],
    [row('hooks: []', withoutHooks), row('module hooks', withModuleHooks)],
  );
  const ratio = withModuleHooks.medianRunMicros / withoutHooks.medianRunMicros;
  const overheadRun = withModuleHooks.medianRunMicros - withoutHooks.medianRunMicros;
  return [
    `(a) hook overhead: no-op agent, ${options.iterations} tool rounds per run = ${eventsPerRun} hook events per run;`,
    `    ${options.runs} measured runs per variant, interleaved, after ${options.warmupRuns} warm-up runs each`,
    '',
    table,
    '',
    `ratio with/without (medians): ${ratio.toFixed(2)}x`,
    `overhead: ${formatMicros(overheadRun / eventsPerRun, 3)} per hook event (${formatMicros(overheadRun, 1)} per run)`,
  ].join('\n');
}
