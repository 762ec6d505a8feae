import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { waitFor } from 'dev-services';
import { benchIdentity } from './bench-identity';
import { BodyPeer } from './body-peer';
import { processCpuMicros } from './process-cpu';
import {
  costCases,
  HOSTILE_GZIP,
  userRequest,
  type CostCase,
  type CostSubject,
} from './request-cost-cases';
import { requestCostProblems } from './request-cost-problems';
import {
  answered,
  countAnswer,
  sendInLoops,
  userLatencies,
  type AnswerCounts,
} from './request-loops';
import { SpawnedService } from './spawned-service';

/** How long section (m) sends each kind of request, and with how many clients. */
export interface RequestCostOptions {
  /** Concurrent clients of a CPU batch, each one request at a time. */
  clients: number;
  /** A batch of each case sent first and not counted, `warmupRounds` times around (the service's JIT settles over seconds). */
  warmupMs: number;
  warmupRounds: number;
  /** One batch's length; its CPU is read before and after. */
  batchMs: number;
  batches: number;
  /** At most this many requests per batch (each is a new connection). */
  maxBatchRequests: number;
  /** Clients sending the hostile gzip body without a token during the latency window. */
  attackers: number;
  /** How long the user's requests are timed, alone and beside the attackers. */
  latencyWindowMs: number;
}

/** One kind of request: what it was answered, and the server CPU it cost. */
export interface CostRow {
  subject: CostSubject;
  kind: string;
  expected: number;
  baseline: boolean;
  /** Whether `closed while sending` is an expected outcome (see `CostCase.refusedUnread`). */
  refusedUnread: boolean;
  counts: AnswerCounts;
  /** Server CPU per request of each batch, in microseconds. */
  batchMicros: number[];
}

/** A user's latency against one subject, alone or beside the attackers. */
export interface LatencyRow {
  subject: CostSubject;
  attackers: number;
  samplesMs: number[];
  counts: AnswerCounts;
  /** The attackers' answers and their rate, when there were attackers. */
  attack?: { counts: AnswerCounts; perSecond: number };
}

/** What section (m) found; `problems` are answers other than expected. */
export interface RequestCostResult {
  options: RequestCostOptions;
  rows: CostRow[];
  latency: LatencyRow[];
  problems: string[];
}

/** Where a subject listens, and its process. */
interface Subject {
  baseUrl: string;
  pid: number;
}

function cpuOf(pid: number): number {
  const micros = processCpuMicros(pid);
  if (micros === undefined) throw new Error(`cannot read the CPU of process ${pid} from /proc`);
  return micros;
}

/** One batch for `ms` (or `maxRequests`): its answers and the server CPU per request. */
async function batch(
  subject: Subject,
  costCase: CostCase,
  agent: Agent,
  ms: number,
  options: RequestCostOptions,
) {
  const endAt = performance.now() + ms;
  let started = 0;
  const before = cpuOf(subject.pid);
  const counts = await sendInLoops(
    subject.baseUrl,
    costCase.request,
    agent,
    options.clients,
    () => performance.now() < endAt && started++ < options.maxBatchRequests,
  );
  return { counts, micros: (cpuOf(subject.pid) - before) / answered(counts) };
}

/**
 * Every case warmed up, then its batches interleaved with the other cases' (one batch of each in
 * turn), so a change of load on the machine falls on every case alike.
 */
async function measureCases(
  cases: readonly CostCase[],
  subjects: Record<CostSubject, Subject>,
  agent: Agent,
  options: RequestCostOptions,
): Promise<CostRow[]> {
  for (let i = 0; i < options.warmupRounds; i++) {
    for (const costCase of cases)
      await batch(subjects[costCase.subject], costCase, agent, options.warmupMs, options);
  }
  const rows: CostRow[] = cases.map(({ subject, kind, expected, baseline, refusedUnread }) => ({
    subject,
    kind,
    expected,
    baseline: baseline === true,
    refusedUnread: refusedUnread === true,
    counts: new Map(),
    batchMicros: [],
  }));
  for (let i = 0; i < options.batches; i++) {
    for (const [at, costCase] of cases.entries()) {
      const measured = await batch(
        subjects[costCase.subject],
        costCase,
        agent,
        options.batchMs,
        options,
      );
      for (const [key, n] of measured.counts) countAnswer(rows[at].counts, key, n);
      rows[at].batchMicros.push(measured.micros);
    }
  }
  return rows;
}

/** The user's latency alone, then beside `options.attackers` clients sending the hostile gzip body. */
async function measureLatency(
  name: CostSubject,
  subject: Subject,
  token: string,
  agent: Agent,
  options: RequestCostOptions,
): Promise<LatencyRow[]> {
  const user = userRequest(token);
  const alone = await userLatencies(subject.baseUrl, user, agent, options.latencyWindowMs);
  let attacking = true;
  const attackCounts: AnswerCounts = new Map();
  const attack = sendInLoops(
    subject.baseUrl,
    HOSTILE_GZIP,
    agent,
    options.attackers,
    () => attacking,
    attackCounts,
  );
  try {
    // Every attacker answered at least once: the attack is under way before the user is timed.
    await waitFor(
      () => answered(attackCounts) >= options.attackers,
      'the attackers to be answered',
      30_000,
      10,
    );
    const [answeredBefore, startedAt] = [answered(attackCounts), performance.now()];
    const attacked = await userLatencies(subject.baseUrl, user, agent, options.latencyWindowMs);
    const perSecond =
      (answered(attackCounts) - answeredBefore) / ((performance.now() - startedAt) / 1000);
    attacking = false;
    const counts = await attack;
    return [
      { subject: name, attackers: 0, ...alone },
      { subject: name, attackers: options.attackers, ...attacked, attack: { counts, perSecond } },
    ];
  } finally {
    attacking = false;
    await attack;
  }
}

/**
 * Section (m): the server CPU a request costs before and after authentication, read from
 * `/proc/<pid>/stat` of the built service and of a peer with Nest's defaults around batches of
 * each kind of request, and a user's latency while clients send a hostile body without a token.
 */
export async function measureRequestCost(options: RequestCostOptions): Promise<RequestCostResult> {
  const { env, token } = benchIdentity();
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const service = await SpawnedService.start({ ...env });
  let peer: BodyPeer | undefined;
  try {
    peer = await BodyPeer.start(env.AUTH_JWT_SECRET, token);
    const subjects: Record<CostSubject, Subject> = {
      service: { baseUrl: service.baseUrl, pid: service.pid! },
      peer: { baseUrl: peer.baseUrl, pid: peer.pid! },
    };
    const rows = await measureCases(costCases(token), subjects, agent, options);
    const latency: LatencyRow[] = [];
    for (const name of ['service', 'peer'] as const)
      latency.push(...(await measureLatency(name, subjects[name], token, agent, options)));
    return { options, rows, latency, problems: requestCostProblems(rows, latency) };
  } finally {
    await peer?.dispose();
    await service.dispose();
    agent.destroy();
  }
}
