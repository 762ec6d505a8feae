import { cpus, loadavg, platform, arch } from 'node:os';
import { relative } from 'node:path';
import { hookOverheadReport, measureHookOverhead } from './hook-overhead.bench';
import {
  measureShutdownAtScale,
  shutdownAtScaleReport,
  type ShutdownAtScaleOptions,
  type ShutdownAtScaleResult,
} from './shutdown-at-scale.bench';

const HOOK_OVERHEAD = { runs: 2_000, iterations: 10, warmupRuns: 500 };
const SHUTDOWN_SIZES = [100, 1_000];
const SHUTDOWN: ShutdownAtScaleOptions = { reasoningMs: 60_000, shutdownTimeoutMs: 25_000, inFlightTimeoutMs: 60_000 };

function header(): string {
  const script = relative(process.cwd(), process.argv[1] ?? '');
  const command = process.env.npm_lifecycle_event === 'bench' ? `npm run bench  (node ${script})` : `node ${script}`;
  const cpu = cpus();
  const load = loadavg().map((value) => value.toFixed(2)).join(' ');
  return [
    `command: ${command}`,
    `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown cpu'}), Node ${process.version}, ${platform()} ${arch()}, load average at start ${load}`,
  ].join('\n');
}

/** Prints the hook-overhead and shutdown-at-scale tables; exits 1 if a run was lost or a measurement failed. */
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
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);

  if (failures.length || results.some((r) => r.problems.length > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
