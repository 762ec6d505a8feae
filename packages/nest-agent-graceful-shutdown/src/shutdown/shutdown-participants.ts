import { EventLogger } from '../logging/event-logger.js';

/** How long one participant may hold the shutdown. */
export interface ParticipantOptions {
  /** Name in logs. @default 'handler' or 'hold' */
  name?: string;
  /**
   * The longest the shutdown waits for it, in milliseconds; the shutdown's hard deadline
   * still applies.
   * @default 10000
   */
  timeoutMs?: number;
}

/** A host's shutdown handler: stop consuming, flush, say goodbye. */
export type ShutdownHandler = (reason: string) => void | Promise<void>;

const DEFAULT_PARTICIPANT_TIMEOUT_MS = 10_000;

interface Participant {
  name: string;
  timeoutMs: number;
  settle: (reason: string) => Promise<unknown>;
}

/**
 * The host's work that is not an agent run and joins the shutdown (lightship-style): handlers
 * run in registration order when the shutdown starts, each in its own try/catch and with its
 * own timeout, while the runs drain; holds keep the shutdown open until their promise settles
 * or their timeout passes. Nothing here ever throws into the shutdown.
 */
export class ShutdownParticipants {
  private readonly logger = new EventLogger('GracefulShutdown');
  private readonly handlers = new Set<Participant>();
  private readonly holds = new Set<Participant>();
  private started = false;

  /** Registers a handler; the returned function unregisters it. */
  addHandler(handler: ShutdownHandler, options: ParticipantOptions = {}): () => void {
    const participant = this.participant(options, 'handler', async (reason) => handler(reason));
    this.handlers.add(participant);
    return () => this.handlers.delete(participant);
  }

  /** Keeps the shutdown open until `work` settles (or its timeout passes), whether it is under way or not. */
  holdUntil(work: PromiseLike<unknown>, options: ParticipantOptions = {}): void {
    const participant = this.participant(options, 'hold', () => Promise.resolve(work));
    this.holds.add(participant);
    // A hold that settles before any shutdown needs no waiting for.
    void Promise.resolve(work).then(
      () => !this.started && this.holds.delete(participant),
      () => !this.started && this.holds.delete(participant),
    );
  }

  /**
   * Runs the handlers in order and waits for the holds, including holds taken while the
   * handlers run; resolves when all are done or timed out.
   */
  async settle(reason: string): Promise<void> {
    this.started = true;
    const awaited = new Set<Participant>();
    const holds = this.awaitHolds(awaited, reason);
    for (const handler of this.handlers) await this.bounded(handler, reason);
    await holds;
    await this.awaitHolds(awaited, reason);
  }

  private async awaitHolds(awaited: Set<Participant>, reason: string): Promise<void> {
    for (let next = this.unawaited(awaited); next.length > 0; next = this.unawaited(awaited)) {
      for (const hold of next) awaited.add(hold);
      await Promise.all(next.map((hold) => this.bounded(hold, reason)));
    }
  }

  private unawaited(awaited: Set<Participant>): Participant[] {
    return [...this.holds].filter((hold) => !awaited.has(hold));
  }

  private participant(
    options: ParticipantOptions,
    kind: string,
    settle: Participant['settle'],
  ): Participant {
    return {
      name: options.name ?? kind,
      timeoutMs: options.timeoutMs ?? DEFAULT_PARTICIPANT_TIMEOUT_MS,
      settle,
    };
  }

  private async bounded(participant: Participant, reason: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), participant.timeoutMs);
      timer.unref();
    });
    try {
      const result = await Promise.race([
        participant.settle(reason).then(() => 'done' as const),
        timedOut,
      ]);
      if (result === 'timeout')
        this.logger.warn('shutdown participant timed out', {
          name: participant.name,
          timeoutMs: participant.timeoutMs,
        });
    } catch (error) {
      this.logger.warn('shutdown participant failed', {
        name: participant.name,
        error: String(error),
      });
    } finally {
      clearTimeout(timer);
    }
  }
}
