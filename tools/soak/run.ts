import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from 'dev-services';
import { ChartFiles } from '../charts/chart-files';
import { parseSoakCommand } from './soak-options';

/**
 * `npm run soak -- [--minutes M] [--restart-every-s S] [--warmup-s S] [--clients N]
 * [--sample-every-s S] [--seed N] [--logs DIR] [--publish]`: keeps one instance busy for M
 * minutes, restarting it with SIGTERM every S seconds, prints a per-minute table, the fitted
 * memory and handle slopes and the audit, and writes the chart to `demo-output/soak/` (and
 * `docs/images/` with `--publish`). Exits 0 only when nothing was lost and no slope grows.
 */
async function main(): Promise<void> {
  // Each life holds one `exit` listener that kills it if this process dies.
  process.setMaxListeners(64);
  const command = parseSoakCommand(process.argv.slice(2));
  const line = `npm run soak -- --minutes ${command.minutes} --restart-every-s ${command.restartEverySeconds} --warmup-s ${command.warmupSeconds} --clients ${command.clients} --seed ${command.seed}`;
  console.log(`seed ${command.seed} (replay: ${line})`);
  const logDir =
    command.logDir ??
    join(
      REPO_ROOT,
      'demo-output',
      'soak',
      `seed-${command.seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`,
    );
  mkdirSync(logDir, { recursive: true });
  console.log(`instance logs: ${logDir}`);
  const { runSoak } = await import('./soak-run');
  const { formatSoakReport } = await import('./soak-report');
  const { soakChartSvg } = await import('./soak-chart');
  const result = await runSoak({ ...command, logDir, log: (text) => console.log(`  ${text}`) });
  console.log(
    `\n${formatSoakReport(result, { command: line, seed: command.seed, warmupSeconds: command.warmupSeconds, logDir })}`,
  );
  const { rssAfterGcMb, heapAfterGcMb, handles } = result.fits;
  const restartsAtMin = result.restartsAtMs.map((ms) => ms / 60_000);
  const svg = await soakChartSvg(result.minutes, result.samples, result.gcs, restartsAtMin, {
    title: `Soak: ${command.minutes} minutes, ${result.restarts.length} SIGTERM-and-restarts, ${command.clients} users`,
    facts: [
      `memory: each sample (faint line, one per instance life) and the mean of each minute (point)`,
      `slopes after ${command.warmupSeconds} s of each life: RSS after full GC ${rssAfterGcMb.slopePerMin.toFixed(2)} MB/min (${rssAfterGcMb.verdict}), heap after full GC ${heapAfterGcMb.slopePerMin.toFixed(2)} MB/min (${heapAfterGcMb.verdict}), handles ${handles.slopePerMin.toFixed(2)}/min (${handles.verdict}); threshold 1% of the mean per minute`,
      `audit: ${result.audit.turns.completed} turns completed, ${result.logEnds.read} run logs read to the end; ${result.passed ? 'nothing lost' : `${result.problems.length} problem(s)`}`,
    ],
  });
  for (const file of ChartFiles.forTool('soak', command.publish).write('soak', svg))
    console.log(`chart: ${file}`);
  process.exitCode = result.passed ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
