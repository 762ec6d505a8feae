import { formatReport } from './rolling-report';
import { runRollingProof, type RollingProofOptions } from './rolling-proof';

/**
 * `npm run demo:rolling [-- --mode sigterm|sigkill|both] [--sessions N] [--logs DIR]`: runs the
 * rolling deployment proof and prints its report (and, with `--logs`, keeps every instance's
 * log); exits 1 when a promise did not hold.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const modeArg = option('mode') ?? 'both';
  if (!['sigterm', 'sigkill', 'both'].includes(modeArg)) throw new Error(`--mode must be sigterm, sigkill or both, got ${modeArg}`);
  const sessions = Number(option('sessions') ?? 100);
  if (!Number.isInteger(sessions) || sessions < 1) throw new Error(`--sessions must be a positive integer, got ${option('sessions')}`);
  const modes: RollingProofOptions['mode'][] = modeArg === 'both' ? ['sigterm', 'sigkill'] : [modeArg as RollingProofOptions['mode']];
  let passed = true;
  for (const mode of modes) {
    const logDir = option('logs') ? `${option('logs')}/${mode}` : undefined;
    const report = await runRollingProof({ mode, sessions, logDir, log: (line) => console.log(`  · ${line}`) });
    console.log(`\n${formatReport(report)}\n`);
    passed &&= report.passed;
  }
  process.exitCode = passed ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
