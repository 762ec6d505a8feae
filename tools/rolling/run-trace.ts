import type { ReconnectInfo, ResumableRunStats } from 'nest-agent-graceful-shutdown/client';
import type { TappedConnection, TappedFrame } from './stream-tap';

/**
 * The client's stream stalled across one or more `handover` notices: from the last event of
 * the run it received before the notice to the first it received after it.
 */
export interface HandoverGap {
  /** The stall the client saw, in ms. */
  gapMs: number;
  /** Of it, the part after the notice: closing, joining again and the first event there, in ms. */
  afterNoticeMs: number;
  /** Notices in the stall (more than 1: the instance it joined was shut down before any new event came). */
  notices: number;
  /** `performance.now()` of the stall's start (the last event before it), its first notice, and its end (the first event after it). */
  fromMs: number;
  firstNoticeAtMs: number;
  toMs: number;
}

const isNotice = (frame: TappedFrame) =>
  frame.id === undefined && frame.type === 'CUSTOM' && frame.name === 'handover';

/**
 * A run request the load balancer sent where no run could start: 503 `SHUTTING_DOWN` (an
 * instance already signalled, so out of the upstreams when the handover proof signals it) or
 * 502/504 (nginx could not reach the instance).
 */
const isMisrouted = (connection: TappedConnection) =>
  connection.method === 'POST' &&
  ((connection.status === 503 && (connection.refusal ?? '').includes('"SHUTTING_DOWN"')) ||
    connection.status === 502 ||
    connection.status === 504);

/**
 * One run as its client saw it: every request it made for the run (with the frames each
 * carried), the events its subscriber got, the reconnects it announced and what its stats
 * counted. Built while the run goes, read by the audit afterwards.
 */
export class RunTrace {
  readonly connections: TappedConnection[] = [];
  /** A fingerprint of each event the subscriber got, in order (see `eventFingerprint`). */
  readonly delivered: string[] = [];
  readonly reconnects: ReconnectInfo[] = [];
  /** The agent's stats counted during this run. */
  stats: ResumableRunStats = {
    handovers: 0,
    joins: 0,
    resends: 0,
    interruptedRetries: 0,
    duplicatesDropped: 0,
  };
  completed = false;
  /** Why the run did not complete, when it did not. */
  failure?: string;
  durationMs = 0;

  constructor(
    readonly threadId: string,
    readonly runId: string,
  ) {}

  /** Requests beyond the first POST that the client had to send again (resends and `RUN_INTERRUPTED` retries). */
  get clientRetries(): number {
    return this.stats.resends + this.stats.interruptedRetries;
  }

  /**
   * POSTs refused before the run started because the load balancer still sent them to an
   * instance out of its upstreams (see `isMisrouted`): the client resent each, and the resent
   * one started the run. Nothing of a handover: the run did not exist yet.
   */
  misroutedPosts(): number {
    let count = 0;
    for (const connection of this.connections) {
      if (connection.frames.some((frame) => frame.id !== undefined)) break;
      if (isMisrouted(connection)) count++;
    }
    return count;
  }

  /** Every `id:` received, over all connections, in order of arrival (a repeat appears twice). */
  receivedIds(): number[] {
    return this.arrivals()
      .map((frame) => frame.id)
      .filter((id): id is number => id !== undefined);
  }

  /** The stalls around `handover` notices, one per stretch of silence however many notices it held. */
  handoverGaps(): HandoverGap[] {
    const gaps: HandoverGap[] = [];
    let lastEvent: TappedFrame | undefined;
    let pending: { firstNoticeAtMs: number; lastNoticeAtMs: number; notices: number } | undefined;
    for (const frame of this.arrivals()) {
      if (isNotice(frame)) {
        pending = pending
          ? { ...pending, lastNoticeAtMs: frame.atMs, notices: pending.notices + 1 }
          : { firstNoticeAtMs: frame.atMs, lastNoticeAtMs: frame.atMs, notices: 1 };
        continue;
      }
      if (frame.id === undefined) continue;
      if (pending) {
        const from = lastEvent?.atMs ?? pending.firstNoticeAtMs;
        gaps.push({
          gapMs: frame.atMs - from,
          afterNoticeMs: frame.atMs - pending.lastNoticeAtMs,
          notices: pending.notices,
          fromMs: from,
          firstNoticeAtMs: pending.firstNoticeAtMs,
          toMs: frame.atMs,
        });
        pending = undefined;
      }
      lastEvent = frame;
    }
    return gaps;
  }

  /** The frames of every connection, in order of arrival (a run has one connection open at a time). */
  private arrivals(): TappedFrame[] {
    return this.connections.flatMap((connection) => connection.frames);
  }
}
