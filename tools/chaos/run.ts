import { join } from 'node:path';
import { REPO_ROOT } from 'dev-services';
import { makeSchedule, scheduleLine } from './chaos-schedule';
import { parseChaosCommand } from './chaos-options';

/** The instances' lease TTL, as the Helm chart sets it: a pause lasts longer. */
const LEASE_TTL_MS = 15_000;

/**
 * `npm run chaos -- [--seed N] [--seconds S] [--clients N] [--dry-run] [--logs DIR]`: prints the
 * seed, then (with `--dry-run`, only) the schedule that seed makes, one line per fault or action;
 * otherwise plays it against a fleet, printing each line as executed, and prints the audit.
 * Exits 0 only when the audit holds.
 */
async function main(): Promise<void> {
  // Each instance, spares included, holds one `exit` listener that kills it if this process dies.
  process.setMaxListeners(64);
  const command = parseChaosCommand(process.argv.slice(2));
  const { seed, seconds, clients } = command;
  console.log(
    `seed ${seed} (replay: npm run chaos -- --seed ${seed} --seconds ${seconds} --clients ${clients})`,
  );
  if (command.dryRun) {
    for (const entry of makeSchedule({ seed, seconds, users: clients, leaseTtlMs: LEASE_TTL_MS }))
      console.log(scheduleLine(entry));
    return;
  }
  const logDir =
    command.logDir ??
    join(
      REPO_ROOT,
      'demo-output',
      'chaos',
      `seed-${seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`,
    );
  console.log(`instance logs: ${logDir}`);
  // Loaded only for a real run, so that a dry run starts in a moment.
  const { runChaos } = await import('./chaos-run');
  const { formatChaosReport } = await import('./chaos-report');
  const result = await runChaos({
    seed,
    seconds,
    users: clients,
    logDir,
    leaseTtlMs: LEASE_TTL_MS,
    log: (line) => console.log(`  ${line}`),
  });
  console.log(`\n${formatChaosReport(result, logDir)}`);
  process.exitCode = result.passed ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
