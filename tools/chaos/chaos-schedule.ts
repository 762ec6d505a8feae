import { SeededStream } from './seeded-stream';

/** Faults done to the fleet: to one instance, or to a backend every instance shares. */
export const FAULT_KINDS = ['sigterm', 'sigkill', 'pause', 'pg-restart', 'redis-restart'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What a human user does: stop a run, or answer a tool call that waits for approval. */
export const USER_ACTION_KINDS = ['cancel', 'approve', 'reject'] as const;
export type UserActionKind = (typeof USER_ACTION_KINDS)[number];

/** One line of the schedule. */
export interface ScheduledAction {
  /** When, from the start of the clients, in ms. */
  atMs: number;
  action: FaultKind | UserActionKind;
  /**
   * Who: `slot-N` (the instance in that fleet slot at the time), `postgres:fast` or
   * `postgres:immediate` (the `pg_ctl stop` mode), `redis`, or `user-N`.
   */
  target: string;
  /** How long the fault lasts, in ms: a pause's SIGSTOP to SIGCONT, Redis down between stop and start. */
  durationMs?: number;
}

export interface ScheduleOptions {
  /** The seed, an integer: the same seed and options make the same schedule. */
  seed: number;
  /** Length of the window in which clients start turns and actions happen, in seconds. */
  seconds: number;
  /** Number of users (`user-1…`). */
  users: number;
  /** The instances' `LEASE_TTL_MS`: a pause lasts longer than this. */
  leaseTtlMs: number;
  /** Fleet slots (instances kept live). Default: 3. */
  slots?: number;
}

/** No fault before this, in ms: every client has a run under way by then. */
const FIRST_FAULT_MS = 4_000;
/** Faults end this long before the window does, in ms, so runs can settle while clients still work. */
const QUIET_TAIL_MS = 8_000;
/** The spacing between the end of one fault and the start of the next, in ms (one fault at a time). */
const FAULT_GAP_MS: [number, number] = [2_500, 5_000];
/** How long a PostgreSQL restart keeps the next fault away, in ms (its stop and start take about this). */
const PG_RESTART_SPAN_MS = 3_000;
/** A pause outlasts the lease TTL by this much, in ms, so another instance takes its runs over. */
const PAUSE_OVER_TTL_MS: [number, number] = [2_000, 5_000];
/** How long Redis stays down, in ms. */
const REDIS_DOWN_MS: [number, number] = [500, 3_000];
/** Time between two user actions, in ms. */
const ACTION_GAP_MS: [number, number] = [800, 2_500];
/** User actions start after this, in ms. */
const FIRST_ACTION_MS = 2_000;

/**
 * The users whose approvals are left to the schedule's `approve` and `reject` actions (user 1,
 * 4, 7, …); the others answer their own approvals at once.
 */
export function isReviewedUser(user: number): boolean {
  return user % 3 === 1;
}

/**
 * Makes the whole chaos schedule from the seed, before anything runs: faults one at a time on
 * their own random stream (every kind once in a shuffled round before any repeats, a pause
 * longer than the lease TTL), and user actions (cancels of any user's run, approval answers for
 * the reviewed users) on an independent stream, so neither can shift the other. Sorted by time.
 *
 * @example
 * const schedule = makeSchedule({ seed: 7, seconds: 60, users: 12, leaseTtlMs: 15_000 });
 * schedule.map(scheduleLine); // the same lines on every run with seed 7
 */
export function makeSchedule(options: ScheduleOptions): ScheduledAction[] {
  const faultStream = new SeededStream(options.seed);
  const actionStream = faultStream.fork();
  return [...faults(faultStream, options), ...userActions(actionStream, options)].sort(
    (a, b) => a.atMs - b.atMs,
  );
}

function faults(stream: SeededStream, options: ScheduleOptions): ScheduledAction[] {
  const lastEndMs = options.seconds * 1000 - QUIET_TAIL_MS;
  const slots = options.slots ?? 3;
  const out: ScheduledAction[] = [];
  let deck: FaultKind[] = [];
  let atMs = FIRST_FAULT_MS + stream.int(0, 2_000);
  for (;;) {
    if (deck.length === 0) deck = stream.shuffled(FAULT_KINDS);
    const pauseMs = options.leaseTtlMs + stream.int(...PAUSE_OVER_TTL_MS);
    const redisDownMs = stream.int(...REDIS_DOWN_MS);
    const span = (kind: FaultKind) =>
      kind === 'pause'
        ? pauseMs
        : kind === 'pg-restart'
          ? PG_RESTART_SPAN_MS
          : kind === 'redis-restart'
            ? redisDownMs
            : 0;
    // The next kind of the round that still fits before the quiet tail.
    const index = deck.findIndex((kind) => atMs + span(kind) <= lastEndMs);
    if (index < 0) break;
    const [kind] = deck.splice(index, 1);
    const slot = `slot-${stream.int(1, slots)}`;
    const pgMode = stream.pick(['fast', 'immediate']);
    if (kind === 'pause') out.push({ atMs, action: kind, target: slot, durationMs: pauseMs });
    else if (kind === 'pg-restart') out.push({ atMs, action: kind, target: `postgres:${pgMode}` });
    else if (kind === 'redis-restart')
      out.push({ atMs, action: kind, target: 'redis', durationMs: redisDownMs });
    else out.push({ atMs, action: kind, target: slot });
    atMs += span(kind) + stream.int(...FAULT_GAP_MS);
  }
  return out;
}

function userActions(stream: SeededStream, options: ScheduleOptions): ScheduledAction[] {
  const reviewed = Array.from({ length: options.users }, (_, i) => i + 1).filter(isReviewedUser);
  const out: ScheduledAction[] = [];
  for (
    let atMs = FIRST_ACTION_MS + stream.int(0, 1_000);
    atMs < options.seconds * 1000;
    atMs += stream.int(...ACTION_GAP_MS)
  ) {
    const roll = stream.int(0, 9);
    const action: UserActionKind = roll < 4 ? 'cancel' : roll < 8 ? 'approve' : 'reject';
    const user =
      action === 'cancel' || reviewed.length === 0
        ? stream.int(1, options.users)
        : stream.pick(reviewed);
    out.push({
      atMs,
      action: action !== 'cancel' && reviewed.length === 0 ? 'cancel' : action,
      target: `user-${user}`,
    });
  }
  return out;
}

/**
 * One schedule line as `--dry-run` prints it: time offset, action, target (and duration).
 *
 * @example
 * scheduleLine({ atMs: 12_345, action: 'pause', target: 'slot-2', durationMs: 18_000 }); // '+  12.345s  pause          slot-2  for 18000 ms'
 */
export function scheduleLine(entry: ScheduledAction): string {
  const at = `+${(entry.atMs / 1000).toFixed(3).padStart(8)}s`;
  const duration = entry.durationMs === undefined ? '' : `  for ${entry.durationMs} ms`;
  return `${at}  ${entry.action.padEnd(13)}  ${entry.target}${duration}`;
}

/**
 * One random stream per user (`user-1` first), for choices made while the run goes on (a
 * user's own approval answers): forks of the seed's root stream taken after the schedule's
 * own, so however much they draw, the schedule stays what the seed made.
 */
export function userStreams(seed: number, users: number): SeededStream[] {
  const root = new SeededStream(seed);
  root.fork(); // the user actions' stream of makeSchedule
  return Array.from({ length: users }, () => root.fork());
}
