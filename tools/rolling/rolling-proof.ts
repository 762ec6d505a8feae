import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { JwtService } from '@nestjs/jwt';
import { SpawnedService } from '../bench/spawned-service';
import { waitUntil, withDeadline } from '../bench/wait-until';
import { shutdownTimings, type ShutdownTimingInputs } from '../deploy/shutdown-timings';
import { ensureLocalServicePackages, NginxServer, PostgresServer, RedisServer } from '../local-services';
import { ClientSession, ClientTally } from './client-session';
import { EndpointsController } from './endpoints-controller';
import { ExecutionLedger } from './execution-ledger';
import { auditHistories } from './history-audit';
import { judge, type InstanceShutdown, type RollingReport } from './rolling-report';

export interface RollingProofOptions {
  /** How old instances are replaced: `SIGTERM` (a rollout) or `SIGKILL` (a crash). */
  mode: 'sigterm' | 'sigkill';
  /** Concurrent client sessions, each its own thread. Default: 100. */
  sessions?: number;
  /** Instances before and after the rollout. Default: 3. */
  instances?: number;
  /**
   * The demo agent: tool rounds per turn and the time of each call, in ms. Default: 3, 400,
   * 400: a turn of about 2.8 s, longer than the drain, so a shutdown finds runs of every age.
   */
  demo?: { steps: number; reasoningMs: number; toolMs: number };
  /** The shutdown numbers, derived as the Helm chart derives them. Default: no preStop, 1 s drain, 2 s to save, 1 s slack. */
  timing?: ShutdownTimingInputs;
  /**
   * `LEASE_TTL_MS` of the instances: how soon a killed instance's threads resume elsewhere.
   * Default: 5000. It must outlast the slowest lease renewal: with seven processes on two
   * cores, renewals queued behind checkpoints have taken over 1.5 s here.
   */
  leaseTtlMs?: number;
  /** Progress lines, for a human watching. */
  log?: (line: string) => void;
  /** When set, each instance's log is written to `<logDir>/<instance>.log`. */
  logDir?: string;
}

/** Deadline of one client turn, in ms: past it the turn counts as failed. */
const TURN_DEADLINE_MS = 90_000;

/** How long an instance may take to boot and become ready, in ms. */
const READY_TIMEOUT_MS = 60_000;

/**
 * The rolling-deployment proof: `instances` copies of the built service on one PostgreSQL and
 * one Redis, behind nginx kept up to date by an {@link EndpointsController}, with `sessions`
 * clients running multi-step demo agents through nginx. The instances are replaced one at a
 * time the way a Deployment with maxSurge 1 and maxUnavailable 0 does it: start a new one, wait
 * until it is routed, then signal an old one. When the rollout is done every client finishes
 * one more turn, and every thread is audited (see {@link auditHistories}).
 */
export async function runRollingProof(options: RollingProofOptions): Promise<RollingReport> {
  const sessionsWanted = options.sessions ?? 100;
  const instanceCount = options.instances ?? 3;
  const demo = options.demo ?? { steps: 3, reasoningMs: 400, toolMs: 400 };
  const timing = options.timing ?? { preStopSeconds: 0, drainSeconds: 1, saveMarginSeconds: 2, exitMarginSeconds: 1 };
  const derived = shutdownTimings(timing);
  const log = options.log ?? (() => undefined);
  const began = performance.now();

  await ensureLocalServicePackages();
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const postgres = await PostgresServer.start();
    cleanups.push(() => postgres.destroy());
    const redis = await RedisServer.start();
    cleanups.push(() => redis.destroy());
    const nginx = await NginxServer.start();
    cleanups.push(() => nginx.destroy());
    const controller = new EndpointsController(nginx);
    controller.start();
    cleanups.push(() => controller.stop());

    const secret = randomBytes(32).toString('hex');
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: secret,
      DATABASE_URL: await postgres.createDatabase('rolling'),
      REDIS_URL: redis.url,
      SHUTDOWN_DRAIN_TIMEOUT_MS: String(derived.drainTimeoutMs),
      SHUTDOWN_TIMEOUT_MS: String(derived.shutdownTimeoutMs),
      LEASE_TTL_MS: String(options.leaseTtlMs ?? 5_000),
      DEMO_STEPS: String(demo.steps),
      DEMO_REASONING_MS: String(demo.reasoningMs),
      DEMO_TOOL_MS: String(demo.toolMs),
    };
    const ledger = new ExecutionLedger();
    const instances: SpawnedService[] = [];
    const launch = async (name: string) => {
      const toLedger = ledger.reader(name);
      const logFile = options.logDir ? join(options.logDir, `${name}.log`) : undefined;
      const onLine = logFile ? (line: string) => (toLedger(line), appendFileSync(logFile, `${line}\n`)) : toLedger;
      const service = await SpawnedService.start(env, READY_TIMEOUT_MS, onLine);
      instances.push(service);
      controller.watch({ name, address: `127.0.0.1:${service.port}` });
      await controller.waitUntilRouted(name, READY_TIMEOUT_MS);
      log(`${name} is ready and routed`);
      return service;
    };
    cleanups.push(() => Promise.all(instances.map((instance) => instance.dispose())));

    const old: { name: string; service: SpawnedService }[] = [];
    for (let i = 1; i <= instanceCount; i++) old.push({ name: `old-${i}`, service: await launch(`old-${i}`) });

    const jwt = new JwtService({ secret });
    const tally = new ClientTally();
    const sessions = Array.from({ length: sessionsWanted }, (_, i) => {
      const token = jwt.sign({ sub: `user-${i + 1}` }, { algorithm: 'HS256', expiresIn: '1h' });
      return new ClientSession({ baseUrl: nginx.url, token, threadId: `rolling-${options.mode}-${i + 1}`, turnDeadlineMs: TURN_DEADLINE_MS }, tally);
    });
    let rolloutDone = false;
    const drivers = sessions.map(async (session) => {
      await sleep(Math.random() * 1_000);
      let turn = 1;
      while (!rolloutDone) await session.turn(turn++);
      // One more turn, entirely on the new instances: the conversation goes on after the rollout.
      await session.turn(turn);
    });
    log(`${sessionsWanted} client sessions started`);
    await waitUntil(async () => (tally.runsStarted >= sessionsWanted ? true : undefined), 'every session to start a run', READY_TIMEOUT_MS, 50);

    const signal = options.mode === 'sigterm' ? 'SIGTERM' : 'SIGKILL';
    const shutdowns: Promise<InstanceShutdown>[] = [];
    for (let i = 0; i < old.length; i++) {
      await launch(`new-${i + 1}`);
      const { name, service } = old[i];
      const sentAt = service.signal(signal);
      log(`${signal} sent to ${name}`);
      shutdowns.push(
        service.exited.then((exit) => {
          controller.forget(name);
          log(`${name} exited after ${Math.round(exit.atMs - sentAt)} ms (code ${exit.code}, signal ${exit.signal})`);
          return { name, signal, durationMs: exit.atMs - sentAt, exitCode: exit.code, exitSignal: exit.signal };
        }),
      );
    }
    const graceMs = (derived.terminationGracePeriodSeconds - timing.preStopSeconds) * 1000;
    // The kubelet's SIGKILL at the end of the grace period; a pass never needs it.
    const exits = await Promise.all(
      shutdowns.map((shutdown, i) => withDeadline(shutdown, graceMs + 5_000, undefined).then((s) => s ?? overdue(old[i], signal))),
    );
    rolloutDone = true;
    log('rollout done; every session finishes one more turn');
    await withDeadline(Promise.all(drivers), TURN_DEADLINE_MS * 2, undefined);

    const audit = await auditHistories(nginx.url, sessions, ledger, demo.steps);
    return judge({
      mode: options.mode,
      sessions: sessionsWanted,
      instances: instanceCount,
      demo,
      timing: { ...timing, ...derived },
      graceMs,
      shutdowns: exits,
      lbChanges: controller.changes.length,
      tally,
      audit,
      durationMs: performance.now() - began,
    });
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
  }
}

/** An instance still running past its grace period: killed, as the kubelet would, and reported. */
async function overdue(instance: { name: string; service: SpawnedService }, signal: InstanceShutdown['signal']): Promise<InstanceShutdown> {
  await instance.service.kill();
  return { name: instance.name, signal, durationMs: Number.POSITIVE_INFINITY, exitCode: null, exitSignal: 'SIGKILL' };
}
