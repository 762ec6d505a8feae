import { cpus, loadavg, platform, arch } from 'node:os';
import { relative } from 'node:path';
import { messageOf } from './bench-stats';
import { crossInstanceCancelReport, measureCrossInstanceCancel, type CrossInstanceCancelOptions } from './cross-instance-cancel.bench';
import { hookOverheadReport, measureHookOverhead } from './hook-overhead.bench';
import { adapterOverheadReport, measureAdapterOverhead, type AdapterOverheadOptions, type AdapterOverheadResult } from './adapter-overhead';
import { aiSdkSubject } from './ai-sdk-overhead.bench';
import { langGraphSubject } from './langgraph-overhead.bench';
import { openAiAgentsSubject } from './openai-agents-overhead.bench';
import { langGraphCheckpointReport, measureLangGraphCheckpoint, type LangGraphCheckpointOptions } from './langgraph-checkpoint.bench';
import { measurePgCheckpoint, pgCheckpointReport, type PgCheckpointOptions } from './pg-checkpoint.bench';
import { measureRedisLoad, redisLoadReport, type RedisLoadOptions } from './redis-load.bench';
import { measureShutdownAtScale, shutdownAtScaleReport, type ShutdownAtScaleOptions, type ShutdownAtScaleResult } from './shutdown-at-scale.bench';

const HOOK_OVERHEAD = { runs: 2_000, iterations: 10, warmupRuns: 500 };
const SHUTDOWN_SIZES = [100, 1_000];
const SHUTDOWN: ShutdownAtScaleOptions = { reasoningMs: 60_000, shutdownTimeoutMs: 25_000, inFlightTimeoutMs: 60_000 };
const CROSS_INSTANCE: CrossInstanceCancelOptions = { runs: 300, warmupRuns: 20, maxGapMs: 100, abortTimeoutMs: 2_000, pollIntervalMs: 100 };
const REDIS_LOAD: RedisLoadOptions = { runCounts: [10, 1_000], windowMs: 3_000, settleMs: 500, pollIntervalMs: 100 };
const ADAPTER_OVERHEAD: AdapterOverheadOptions = { runs: 40, iterations: 5, warmupRuns: 5 };
const PG_CHECKPOINT: PgCheckpointOptions = { sizes: [10, 500], threadsPerSize: 50, warmupSteps: 1, timedSteps: 3 };
const LANGGRAPH_CHECKPOINT: LangGraphCheckpointOptions = { sizes: [10, 100, 1_000], threadsPerSize: 30, warmupSteps: 1, timedSteps: 4 };

/**
 * Prints one benchmark's report, or why it could not be measured; returns false on the latter.
 * A missed target is in the report, not a failure: the numbers are still worth reading.
 */
async function section<T>(title: string, measure: () => Promise<T>, report: (result: T) => string): Promise<boolean> {
  try {
    console.log(report(await measure()));
    return true;
  } catch (error) {
    console.log(`${title}: MEASUREMENT FAILED: ${messageOf(error)}`);
    return false;
  } finally {
    console.log('');
  }
}

function header(): string {
  const script = relative(process.cwd(), process.argv[1] ?? '');
  const command = process.env.npm_lifecycle_event === 'bench' ? `npm run bench  (node ${script})` : `node ${script}`;
  const cpu = cpus();
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return [
    `command: ${command}`,
    `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown cpu'}), Node ${process.version}, ${platform()} ${arch()}, load average at start ${load}`,
  ].join('\n');
}

/** Each framework adapter's per-step overhead, measured one framework after the other. */
async function measureAdapters(): Promise<AdapterOverheadResult[]> {
  const results: AdapterOverheadResult[] = [];
  const subjects = [aiSdkSubject, langGraphSubject, openAiAgentsSubject];
  for (const subject of subjects) results.push(await measureAdapterOverhead(subject(ADAPTER_OVERHEAD.iterations), ADAPTER_OVERHEAD));
  return results;
}

/** Prints every benchmark's table; exits 1 if a run was lost or a measurement failed (not for a missed target). */
async function main(): Promise<void> {
  const started = Date.now();
  console.log(header());
  console.log('');

  console.log(hookOverheadReport(await measureHookOverhead(HOOK_OVERHEAD)));
  console.log('');

  const results: ShutdownAtScaleResult[] = [];
  const failures: string[] = [];
  for (const runs of SHUTDOWN_SIZES) {
    try {
      results.push(await measureShutdownAtScale(runs, SHUTDOWN));
    } catch (error) {
      failures.push(`N=${runs}: measurement failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  console.log(shutdownAtScaleReport(results, SHUTDOWN, failures));
  console.log('');

  const measured = [
    await section('(c) cross-instance cancel latency', () => measureCrossInstanceCancel(CROSS_INSTANCE), crossInstanceCancelReport),
    await section('(d) Redis load per instance', () => measureRedisLoad(REDIS_LOAD), redisLoadReport),
    await section('(e) checkpoint cost on PostgreSQL', () => measurePgCheckpoint(PG_CHECKPOINT), pgCheckpointReport),
    await section('(f) framework adapter overhead', measureAdapters, adapterOverheadReport),
    await section('(g) LangGraph checkpoint cost on PostgreSQL', () => measureLangGraphCheckpoint(LANGGRAPH_CHECKPOINT), langGraphCheckpointReport),
  ];
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);

  if (failures.length || results.some((r) => r.problems.length > 0) || measured.includes(false)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
