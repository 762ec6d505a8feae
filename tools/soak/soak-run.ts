import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { JwtService } from '@nestjs/jwt';
import { ensureLocalServicePackages, PostgresServer, RedisServer } from 'dev-services';
import { waitUntil, withDeadline } from '../bench/wait-until';
import { auditChaos, auditProblems, type ChaosAudit } from '../chaos/chaos-audit';
import { SeededStream } from '../chaos/seeded-stream';
import { readStore } from '../chaos/store-snapshot';
import { auditRunLogEnds, type RunLogEnds } from './run-log-ends';
import { SoakInstance, type SoakRestart } from './soak-instance';
import { JUDGED_FITS, soakFits, type SoakFits } from './soak-fits';
import { perMinute, type SoakMinute } from './soak-minutes';
import type { HeapAfterGc, SoakSample } from './soak-sample';
import { SoakSampler } from './soak-sampler';
import { SideTraffic, type SideTrafficSummary } from './soak-side-traffic';
import { SoakUsers } from './soak-users';
import type { SoakCommand } from './soak-options';

/** What one soak does: the command's settings, with its log folder decided. */
export interface SoakRunOptions extends Omit<SoakCommand, 'logDir' | 'publish'> {
  /** Where the instance's logs, the samples and the audit are written. */
  logDir: string;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface SoakResult {
  samples: SoakSample[];
  /** The heap after each full collection of a serving life. */
  gcs: HeapAfterGc[];
  minutes: SoakMinute[];
  restarts: SoakRestart[];
  /** When each SIGTERM was sent, in ms since the soak began. */
  restartsAtMs: number[];
  fits: SoakFits;
  audit: ChaosAudit;
  logEnds: RunLogEnds;
  side: SideTrafficSummary;
  /** Every broken promise and every growing slope, one line each; empty when the soak passed. */
  problems: string[];
  passed: boolean;
  durationMs: number;
}

const THREAD_PREFIX = 'soak';
/** The instance's settings: the chaos run's demo agent (two tool rounds, each waiting for approval) and a short drain. */
const SERVICE_ENV = {
  NODE_ENV: 'production',
  RESUME_MODE: 'auto',
  DEMO_REQUIRE_APPROVAL: 'true',
  DEMO_STEPS: '2',
  DEMO_REASONING_MS: '300',
  DEMO_TOOL_MS: '300',
  SSE_HEARTBEAT_MS: '2000',
  LEASE_TTL_MS: '15000',
  SHUTDOWN_DRAIN_TIMEOUT_MS: '3000',
  SHUTDOWN_TIMEOUT_MS: '10000',
};
/** After the load, how long the users may take to end their last turn, in ms. */
const SETTLE_MS = 60_000;
/** How long the threads may take to stop running once the users are done, in ms. */
const QUIESCE_TIMEOUT_MS = 30_000;

/**
 * The soak: one instance of the built service on PostgreSQL and Redis (resume mode `auto`),
 * `clients` users working turn after turn (approvals included; a new thread every few turns), cancels and joins beside them,
 * a SIGTERM-and-restart every `restartEverySeconds`, and the instance sampled every
 * `sampleEverySeconds`. Then the users end their last turn, and the chaos run's audit checks
 * that nothing was lost, with every run's log read to its terminal event; the memory and handle
 * slopes are fitted (see {@link soakFits}).
 */
export async function runSoak(options: SoakRunOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const began = performance.now();
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    await ensureLocalServicePackages();
    const postgres = await PostgresServer.start();
    cleanups.push(() => postgres.destroy());
    const redis = await RedisServer.start();
    cleanups.push(() => redis.destroy());
    const databaseUrl = await postgres.createDatabase('soak');
    const secret = randomBytes(32).toString('hex');
    const jwt = new JwtService({ secret });
    const env = {
      ...SERVICE_ENV,
      AUTH_JWT_SECRET: secret,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
    };
    const instance = await SoakInstance.start(
      env,
      Number(SERVICE_ENV.SHUTDOWN_TIMEOUT_MS),
      options.logDir,
      log,
    );
    cleanups.push(() => instance.dispose());
    log(`life 1 ready on ${instance.baseUrl}`);

    const seeds = new SeededStream(options.seed);
    const users = new SoakUsers({
      baseUrl: instance.baseUrl,
      clients: options.clients,
      threadPrefix: THREAD_PREFIX,
      tokenOf: (user) =>
        jwt.sign({ sub: `soak-user-${user}` }, { algorithm: 'HS256', expiresIn: '12h' }),
      random: seeds.fork(),
      reconnectTimeoutMs: SETTLE_MS,
    });

    const startMs = performance.now();
    const endMs = startMs + options.minutes * 60_000;
    const sampler = await SoakSampler.start(
      instance,
      databaseUrl,
      THREAD_PREFIX,
      () => users.turnCounts(),
      startMs,
      options.sampleEverySeconds * 1000,
    );
    cleanups.push(() => sampler.stop());
    const conversations = users.converse(() => performance.now() < endMs, SETTLE_MS);
    const side = new SideTraffic(instance.baseUrl, () => users.active, seeds.fork());
    await restartUntil(instance, startMs, endMs, options.restartEverySeconds * 1000, log);
    await sleep(Math.max(0, endMs - performance.now()));
    log('load over: no new turns; the users end their last one');
    await side.stop();
    await withDeadline(conversations, SETTLE_MS + 5_000, undefined);
    await waitUntil(
      async () =>
        (await readStore(databaseUrl, THREAD_PREFIX)).threads.some((t) => t.status === 'running')
          ? undefined
          : true,
      'every thread to stop running',
      QUIESCE_TIMEOUT_MS,
      500,
    ).catch((error: unknown) => log(String(error)));
    await sampler.stop();

    log('audit: the store, the tool ledger, every answer, and every run log read to its end');
    const logEnds = await auditRunLogEnds(
      instance.baseUrl,
      databaseUrl,
      THREAD_PREFIX,
      (threadId) => users.tokens.get(threadId) ?? '',
    );
    const store = await readStore(databaseUrl, THREAD_PREFIX);
    await instance.stop();
    const audit = auditChaos(users.all, store, instance.ledger, instance.problems);
    const outages = instance.restarts.map((r) => ({ fromMs: r.signalledAtMs, toMs: r.readyAtMs }));
    const sideSummary = side.summary(outages);
    const samples = sampler.samples.filter((s) => s.atMs < endMs - startMs);
    const restartsAtMs = instance.restarts.map((r) => r.signalledAtMs - startMs);
    const gcs = instance.majorGcs
      .map((gc) => ({ atMs: gc.atMs - startMs, life: gc.life, afterMb: gc.afterMb }))
      .filter((gc) => gc.atMs < endMs - startMs);
    const minutes = perMinute(samples, restartsAtMs, options.minutes, gcs);
    const lifeStartsMin = new Map([
      [1, 0],
      ...instance.restarts.map((r): [number, number] => [
        r.life + 1,
        (r.readyAtMs - startMs) / 60_000,
      ]),
    ]);
    const fits = soakFits(samples, gcs, options.warmupSeconds / 60, lifeStartsMin);
    const problems = [
      ...auditProblems(audit),
      ...(logEnds.unfinished.length
        ? [
            `run logs without their terminal event: ${logEnds.unfinished.length} (${logEnds.unfinished.slice(0, 5).join('; ')})`,
          ]
        : []),
      ...(sideSummary.joinProblems.length
        ? [
            `joins cut while serving: ${sideSummary.joinProblems.length} (${sideSummary.joinProblems.slice(0, 5).join('; ')})`,
          ]
        : []),
      ...JUDGED_FITS.map((name) => [name, fits[name]] as const)
        .filter(([, fit]) => fit.verdict === 'growing' || fit.verdict === 'too few samples')
        .map(
          ([name, fit]) =>
            `${name} ${fit.verdict}: slope ${fit.slopePerMin.toFixed(3)}/min, threshold ${fit.thresholdPerMin.toFixed(3)}/min`,
        ),
    ];
    writeFileSync(
      join(options.logDir, 'samples.jsonl'),
      samples.map((s) => JSON.stringify(s)).join('\n'),
    );
    writeFileSync(
      join(options.logDir, 'audit.json'),
      JSON.stringify(
        { seed: options.seed, audit, logEnds, side: sideSummary, fits, problems },
        null,
        2,
      ),
    );
    writeFileSync(
      join(options.logDir, 'major-gcs.jsonl'),
      gcs.map((gc) => JSON.stringify(gc)).join('\n'),
    );
    const result = {
      samples,
      gcs,
      minutes,
      restarts: instance.restarts,
      restartsAtMs,
      fits,
      audit,
      logEnds,
      side: sideSummary,
      problems,
      passed: problems.length === 0,
    };
    return { ...result, durationMs: performance.now() - began };
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
  }
}

/** SIGTERM-and-restart every `everyMs` from `startMs` (none with 0), as long as a restart begins before `endMs`. */
async function restartUntil(
  instance: SoakInstance,
  startMs: number,
  endMs: number,
  everyMs: number,
  log: (line: string) => void,
): Promise<void> {
  if (everyMs <= 0) return;
  for (let at = startMs + everyMs; at < endMs; at += everyMs) {
    await sleep(Math.max(0, at - performance.now()));
    const restart = await instance.restart();
    const exit =
      restart.exitMs === undefined
        ? 'did not exit'
        : `exited ${restart.exitCode} after ${Math.round(restart.exitMs)} ms`;
    log(
      `life ${restart.life}: SIGTERM at ${Math.round((restart.signalledAtMs - startMs) / 1000)} s, ${exit}; life ${restart.life + 1} ready after ${Math.round(restart.readyAtMs - restart.signalledAtMs)} ms`,
    );
  }
}
