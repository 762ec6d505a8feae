import { ChaosUser } from '../chaos/chaos-user';
import type { SeededStream } from '../chaos/seeded-stream';

/** Turns on one thread before its user starts a new one: keeps each request's history, and so the load, steady. */
export const TURNS_PER_THREAD = 10;

export interface SoakUsersOptions {
  /** The instance's URL. */
  baseUrl: string;
  clients: number;
  /** Threads are named `<threadPrefix>-t<session>-<user>`. */
  threadPrefix: string;
  /** The bearer token of user `n` (1, 2, …). */
  tokenOf: (user: number) => string;
  /** The users' answers: each user forks its own stream, and each of its threads forks from that. */
  random: SeededStream;
  /** How long a client keeps following a run it lost, in ms. */
  reconnectTimeoutMs: number;
}

/**
 * The soak's users: the chaos run's {@link ChaosUser}, one per thread. A user starts a new thread
 * every {@link TURNS_PER_THREAD} turns, as people start new conversations: with one thread for
 * the whole soak, every request would carry a longer history than the one before (AG-UI clients
 * resend the conversation), and the load would grow instead of staying steady.
 */
export class SoakUsers {
  /** Every thread's user so far, for the audit. */
  readonly all: ChaosUser[] = [];
  /** Each thread's owner's token, by thread id. */
  readonly tokens = new Map<string, string>();
  private readonly current: ChaosUser[] = [];
  private readonly streams: SeededStream[];

  constructor(private readonly options: SoakUsersOptions) {
    this.streams = Array.from({ length: options.clients }, () => options.random.fork());
  }

  /** The thread each user works on now. */
  get active(): readonly ChaosUser[] {
    return this.current;
  }

  /** Turns done so far over all threads: completed and cancelled. */
  turnCounts(): { completed: number; cancelled: number } {
    const turns = this.all.flatMap((user) => user.turns);
    return {
      completed: turns.filter((t) => t.outcome === 'completed').length,
      cancelled: turns.filter((t) => t.outcome === 'cancelled').length,
    };
  }

  /** Every user's turns while `going()` holds, each to its end (see `ChaosUser.converse`), on a new thread every {@link TURNS_PER_THREAD} turns. */
  async converse(going: () => boolean, turnDeadlineMs: number): Promise<void> {
    await Promise.all(
      Array.from({ length: this.options.clients }, async (_, i) => {
        // A new thread only while the load goes on: none is left opened and never used.
        for (let session = 1; going(); session++) {
          const user = this.next(i, session);
          await user.converse(
            () => going() && user.turns.length < TURNS_PER_THREAD,
            turnDeadlineMs,
          );
        }
      }),
    );
  }

  private next(index: number, session: number): ChaosUser {
    const token = this.options.tokenOf(index + 1);
    const user = new ChaosUser({
      baseUrl: this.options.baseUrl,
      user: index + 1,
      token,
      threadPrefix: `${this.options.threadPrefix}-t${session}`,
      reviewed: false,
      random: this.streams[index].fork(),
      reconnectTimeoutMs: this.options.reconnectTimeoutMs,
    });
    this.all.push(user);
    this.current[index] = user;
    this.tokens.set(user.threadId, token);
    return user;
  }
}
