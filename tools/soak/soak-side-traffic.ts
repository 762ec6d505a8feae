import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChaosUser } from '../chaos/chaos-user';
import type { SeededStream } from '../chaos/seeded-stream';
import { joinStream, type JoinRecord } from './stream-join';

/** Between two cancels, and between two joins, in ms (drawn uniformly in the range). */
const CANCEL_EVERY_MS: [number, number] = [4_000, 10_000];
const JOIN_EVERY_MS: [number, number] = [1_500, 4_000];
/** Joins open at once, at most; how long one may follow its run, in ms. */
const JOINS_AT_ONCE = 3;
const JOIN_TIMEOUT_MS = 60_000;

/** A window in which the instance was not serving: from its SIGTERM to the next life's readiness (`performance.now()`). */
export interface Outage {
  fromMs: number;
  toMs: number;
}

/** What the cancels and joins did, and the joins that broke a promise. */
export interface SideTrafficSummary {
  /** Cancels sent, by HTTP status (`none`: no answer). */
  cancels: Record<string, number>;
  joins: number;
  /** Joins by how they ended (see {@link JoinRecord.ending}). */
  joinEndings: Record<string, number>;
  /** Joins that ended without the run's terminal event, or got a 5xx or no answer, while the instance served. Must be empty. */
  joinProblems: string[];
}

/**
 * The traffic beside the users' own turns: every few seconds a cancel of a random user's active
 * run (`POST /v1/runs/{threadId}/cancel`, through the user, so the audit sees it), and a join
 * of a random user's run stream (`GET /v1/runs/{threadId}/stream`) read to its end, as a second
 * viewer would. Runs until {@link stop}.
 */
export class SideTraffic {
  private readonly cancels: Record<string, number> = {};
  private readonly joins: JoinRecord[] = [];
  private readonly open = new Set<Promise<void>>();
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(
    private readonly baseUrl: string,
    /** The threads the users work on now. */
    private readonly users: () => readonly ChaosUser[],
    private readonly random: SeededStream,
  ) {
    this.loops = [
      this.every(CANCEL_EVERY_MS, () => this.cancel()),
      this.every(JOIN_EVERY_MS, () => this.join()),
    ];
  }

  /** No new cancel or join; resolves once the joins still open ended (each has its deadline). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    await Promise.all([...this.open]);
  }

  /** The summary; a join counts as a problem only outside `outages` (a restart ends every stream). */
  summary(outages: readonly Outage[]): SideTrafficSummary {
    const overlaps = (join: JoinRecord) =>
      outages.some((o) => join.startedAtMs <= o.toMs && join.endedAtMs >= o.fromMs);
    const joinEndings: Record<string, number> = {};
    const joinProblems: string[] = [];
    for (const join of this.joins) {
      const label = join.ending === 'refused' ? `HTTP ${join.status}` : join.ending;
      joinEndings[label] = (joinEndings[label] ?? 0) + 1;
      const broken =
        (join.status === 200 && join.ending !== 'terminal') ||
        join.status === 0 ||
        join.status >= 500;
      if (broken && !overlaps(join))
        joinProblems.push(
          `${join.threadId}: HTTP ${join.status}, ${join.events} events, ended ${join.ending}`,
        );
    }
    return { cancels: { ...this.cancels }, joins: this.joins.length, joinEndings, joinProblems };
  }

  private async every([min, max]: [number, number], act: () => void): Promise<void> {
    for (;;) {
      const until = performance.now() + this.random.int(min, max);
      while (this.running && performance.now() < until)
        await sleep(Math.max(0, Math.min(250, until - performance.now())));
      if (!this.running) return;
      act();
    }
  }

  private cancel(): void {
    const user = this.random.pick(this.users());
    void user.cancel().then((status) => {
      const key = status === undefined ? 'none' : String(status);
      this.cancels[key] = (this.cancels[key] ?? 0) + 1;
    });
  }

  private join(): void {
    if (this.open.size >= JOINS_AT_ONCE) return;
    const user = this.random.pick(this.users());
    const done: Promise<void> = joinStream(
      this.baseUrl,
      { threadId: user.threadId },
      user.token,
      JOIN_TIMEOUT_MS,
    ).then((record) => {
      this.joins.push(record);
      this.open.delete(done);
    });
    this.open.add(done);
  }
}
