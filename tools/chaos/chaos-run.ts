import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil, withDeadline } from '../bench/wait-until';
import { RollingCluster } from '../rolling/rolling-cluster';
import { auditChaos, auditProblems, type ChaosAudit } from './chaos-audit';
import { ChaosFleet } from './chaos-fleet';
import {
  isReviewedUser,
  makeSchedule,
  scheduleLine,
  userStreams,
  type ScheduledAction,
} from './chaos-schedule';
import { ChaosUser } from './chaos-user';
import { readStore } from './store-snapshot';

export interface ChaosRunOptions {
  seed: number;
  /** The window of faults and new turns, in seconds. */
  seconds: number;
  users: number;
  /** Where each instance's log, the executed schedule and the audit are written. */
  logDir: string;
  /** The instances' `LEASE_TTL_MS`. Default: 15000, the Helm chart's. */
  leaseTtlMs?: number;
  /** After the window, how long the users may take to end their last turn, in ms. Default: 60000. */
  settleMs?: number;
  /** Progress lines: the executed schedule as it happens. */
  log?: (line: string) => void;
}

export interface ChaosResult {
  seed: number;
  /** The schedule as executed: each line with the time it really ran at and what it did. */
  executed: string[];
  audit: ChaosAudit;
  /** The audit's broken promises; empty when it holds. */
  problems: string[];
  passed: boolean;
  instancesStarted: number;
  durationMs: number;
}

/** The demo agent of the fleet: two tool rounds per turn, every tool call waiting for approval. */
const DEMO = { steps: 2, reasoningMs: 300, toolMs: 300 };
/** How long the threads may take to stop running once the users are done, in ms. */
const QUIESCE_TIMEOUT_MS = 30_000;

/**
 * The chaos run: a fleet of three instances (resume mode `auto`, on one PostgreSQL and one
 * Redis, behind nginx), `users` users working through it, and the seed's schedule of faults and
 * user actions played against them for `seconds`; then a settle phase in which the users end
 * their last turn, and an audit of the store, the instances' execution ledger and every HTTP
 * answer (see {@link auditChaos}).
 */
export async function runChaos(options: ChaosRunOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const leaseTtlMs = options.leaseTtlMs ?? 15_000;
  const settleMs = options.settleMs ?? 60_000;
  const schedule = makeSchedule({
    seed: options.seed,
    seconds: options.seconds,
    users: options.users,
    leaseTtlMs,
  });
  const began = performance.now();
  const env = { RESUME_MODE: 'auto', DEMO_REQUIRE_APPROVAL: 'true', SSE_HEARTBEAT_MS: '2000' };
  // The fleet starts its instances itself, all at once.
  const cluster = await RollingCluster.start(
    { instances: 0, demo: DEMO, leaseTtlMs, logDir: options.logDir, log },
    env,
  );
  let fleet: ChaosFleet | undefined;
  try {
    fleet = await ChaosFleet.start(cluster);
    const streams = userStreams(options.seed, options.users);
    const users = streams.map(
      (random, i) =>
        new ChaosUser({
          baseUrl: cluster.nginx.url,
          user: i + 1,
          token: cluster.token(`chaos-user-${i + 1}`),
          threadPrefix: 'chaos',
          reviewed: isReviewedUser(i + 1),
          random,
          reconnectTimeoutMs: settleMs,
        }),
    );
    const startMs = performance.now();
    const windowEndMs = startMs + options.seconds * 1000;
    const executed: string[] = [];
    const ran = (entry: ScheduledAction, detail: string, atMs = performance.now() - startMs) => {
      const line = `${scheduleLine({ ...entry, atMs: Math.round(atMs) })}  → ${detail}`;
      executed.push(line);
      log(line);
    };
    const conversations = users.map((user) =>
      user.converse(() => performance.now() < windowEndMs, settleMs),
    );
    const faults = playFaults(schedule, startMs, fleet, ran);
    const actions = playActions(schedule, startMs, users, ran);
    await Promise.all([faults, actions]);
    await sleep(Math.max(0, windowEndMs - performance.now()));
    log('window over: no new turns; the users end their last one');
    for (const user of users) user.answers.release();
    await fleet.settle();
    await withDeadline(Promise.all(conversations), settleMs + 5_000, undefined);
    await waitUntil(
      async () =>
        (await readStore(cluster.backends.databaseUrl, 'chaos')).threads.some(
          (t) => t.status === 'running',
        )
          ? undefined
          : true,
      'every thread to stop running',
      QUIESCE_TIMEOUT_MS,
      500,
    ).catch((error: unknown) => log(String(error)));
    const audit = auditChaos(
      users,
      await readStore(cluster.backends.databaseUrl, 'chaos'),
      cluster.ledger,
      fleet.problems,
    );
    const problems = auditProblems(audit);
    writeFileSync(join(options.logDir, 'executed-schedule.txt'), `${executed.join('\n')}\n`);
    writeFileSync(
      join(options.logDir, 'audit.json'),
      JSON.stringify({ seed: options.seed, audit, problems }, null, 2),
    );
    writeFileSync(
      join(options.logDir, 'users.jsonl'),
      users
        .map((u) =>
          JSON.stringify({
            user: u.name,
            turns: u.turns,
            clientErrors: u.clientErrors,
            requests: u.requests,
          }),
        )
        .join('\n'),
    );
    const result = {
      seed: options.seed,
      executed,
      audit,
      problems,
      passed: problems.length === 0,
      instancesStarted: fleet.instancesStarted,
    };
    return { ...result, durationMs: performance.now() - began };
  } finally {
    await fleet?.close();
    await cluster.dispose();
  }
}

/** Waits until `atMs` after `startMs` (the schedule's clock). */
function until(startMs: number, atMs: number): Promise<void> {
  return sleep(Math.max(0, startMs + atMs - performance.now()));
}

/** Plays the faults one after another, each at its time (or as soon as the one before is over). */
async function playFaults(
  schedule: ScheduledAction[],
  startMs: number,
  fleet: ChaosFleet,
  ran: (e: ScheduledAction, detail: string, atMs: number) => void,
): Promise<void> {
  for (const entry of schedule.filter((e) => !e.target.startsWith('user-'))) {
    await until(startMs, entry.atMs);
    // One fault at a time: the fleet is whole again (replacements routed) before the next.
    await fleet.settle();
    const startedAtMs = performance.now() - startMs;
    const detail = await fleet.apply(entry).catch((error: unknown) => {
      fleet.problems.push(`${entry.action} failed: ${String(error)}`);
      return `failed: ${String(error)}`;
    });
    ran(entry, detail, startedAtMs);
  }
}

/** Plays the users' actions, each at its time: a cancel is sent, an answer is given to the user. */
async function playActions(
  schedule: ScheduledAction[],
  startMs: number,
  users: ChaosUser[],
  ran: (e: ScheduledAction, detail: string) => void,
): Promise<void> {
  for (const entry of schedule.filter((e) => e.target.startsWith('user-'))) {
    await until(startMs, entry.atMs);
    const user = users[Number(entry.target.slice('user-'.length)) - 1];
    if (entry.action === 'cancel') {
      void user.cancel().then((status) => ran(entry, `HTTP ${status ?? 'no answer'}`));
    } else {
      user.answers.give(entry.action === 'approve' ? 'approve' : 'reject');
      ran(entry, `answer given to ${user.name}`);
    }
  }
}
