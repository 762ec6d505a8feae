import { ChartFiles } from '../charts/chart-files';
import { formatHandoverReport } from './handover-report';
import { runHandoverProof } from './handover-proof';
import { formatReport } from './rolling-report';
import { runRollingProof } from './rolling-proof';
import { writeTimelineImage, type ProofReport } from './timeline-image';
import { formatUpgradeReport } from './upgrade-report';
import { runUpgradeProof } from './upgrade-proof';

type Mode = ProofReport['mode'];

/**
 * What each `--mode` runs, in order; `both` is kept for the scripts written before `handover`.
 * `all` is this release's own rollouts: `upgrade` builds another commit first (minutes of npm
 * on a cold cache), so it runs only when asked for.
 */
const MODES: Record<string, Mode[]> = {
  sigterm: ['sigterm'],
  sigkill: ['sigkill'],
  handover: ['handover'],
  upgrade: ['upgrade'],
  both: ['sigterm', 'sigkill'],
  all: ['sigterm', 'sigkill', 'handover'],
};

/**
 * `npm run demo:rolling [-- --mode sigterm|sigkill|handover|upgrade|all] [--sessions N] [--signals redis|postgres] [--redis standalone|cluster] [--drain-seconds N] [--logs DIR] [--out DIR] [--publish]`:
 * runs the rolling deployment proof, prints its report and writes its timeline,
 * `rolling-<mode>.svg|png`, into `demo-output/rolling/` (or `--out`), and with `--publish` into
 * `docs/images/` too, where the README shows it; with `--logs`, keeps every instance's log.
 * Exits 1 when a promise did not hold. `sigterm` and `sigkill` test the
 * client's retry (resume mode `client`), `handover` the instances' own continuation (resume
 * mode `auto`) followed by the resumable client; `upgrade` is the `sigterm` rollout from the
 * previous release (`previous-release.ts`, built once into `node_modules/.cache/releases/`) to
 * this checkout's build; `all` runs the first three, `both` the first two. `--signals postgres`
 * runs the handover proof on PostgreSQL alone (`SIGNALS=postgres`, no Redis started);
 * `--redis cluster` puts the instances on a local Redis Cluster (3 masters, a replica each)
 * instead of one server. `--drain-seconds` sets the `sigterm` and `sigkill` rollouts' drain (default 1;
 * 0 turns it off): the report's "model tokens discarded" line then shows what the drain saves.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const modeArg = option('mode') ?? 'all';
  const modes = MODES[modeArg];
  if (!modes)
    throw new Error(`--mode must be one of ${Object.keys(MODES).join(', ')}, got ${modeArg}`);
  const sessions = Number(option('sessions') ?? 100);
  if (!Number.isInteger(sessions) || sessions < 1)
    throw new Error(`--sessions must be a positive integer, got ${option('sessions')}`);
  const signals = option('signals') ?? 'redis';
  if (signals !== 'redis' && signals !== 'postgres')
    throw new Error(`--signals must be redis or postgres, got ${signals}`);
  const redis = option('redis') ?? 'standalone';
  if (redis !== 'standalone' && redis !== 'cluster')
    throw new Error(`--redis must be standalone or cluster, got ${redis}`);
  if (signals === 'postgres' && redis === 'cluster')
    throw new Error('--signals postgres starts no Redis: leave out --redis cluster');
  const drain = option('drain-seconds');
  const drainSeconds = drain === undefined ? undefined : Number(drain);
  if (drainSeconds !== undefined && (!Number.isInteger(drainSeconds) || drainSeconds < 0))
    throw new Error(`--drain-seconds must be a whole number ≥ 0, got ${drain}`);
  // The rolling cluster's own default (a 1 s drain) unless asked: 0 turns the drain off, to compare what it saves.
  const timing =
    drainSeconds === undefined
      ? undefined
      : { preStopSeconds: 0, drainSeconds, saveMarginSeconds: 2, exitMarginSeconds: 1 };
  const files = ChartFiles.forTool('rolling', args.includes('--publish'), option('out'));
  let passed = true;
  for (const mode of modes) {
    const logDir = option('logs') ? `${option('logs')}/${mode}` : undefined;
    const log = (line: string) => console.log(`  · ${line}`);
    let proof: ProofReport;
    if (mode === 'handover') {
      proof = { mode, report: await runHandoverProof({ sessions, logDir, log, signals, redis }) };
      console.log(`\n${formatHandoverReport(proof.report)}\n`);
    } else if (mode === 'upgrade') {
      // The previous release knows no REDIS_CLUSTER: its instances would take a node for the whole.
      if (redis === 'cluster')
        throw new Error(
          '--mode upgrade runs on one Redis server only: the previous release cannot use a Redis Cluster',
        );
      proof = { mode, report: await runUpgradeProof({ sessions, logDir, log }) };
      console.log(`\n${formatUpgradeReport(proof.report)}\n`);
    } else {
      proof = {
        mode,
        report: await runRollingProof({ mode, sessions, logDir, log, redis, timing }),
      };
      console.log(`\n${formatReport(proof.report)}\n`);
    }
    passed &&= proof.report.passed;
    console.log(`timeline: ${(await writeTimelineImage(files, proof)).join(', ')}\n`);
  }
  process.exitCode = passed ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
