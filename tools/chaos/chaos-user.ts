import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BaseEvent, ResumeEntry } from '@ag-ui/client';
import { ResumableHttpAgent } from 'nest-agent-graceful-shutdown/client';
import { StreamReader, type StreamEvent } from '../rolling/stream-reader';
import { ApprovalAnswers, type ApprovalAnswer } from './approval-answers';
import { recordingFetch, type RecordedRequest } from './request-record';
import type { SeededStream } from './seeded-stream';
import { pendingInterrupts, settledThread, type ThreadStatus } from './thread-status';

/** How one turn of a user ended. */
export interface TurnRecord {
  turn: number;
  messageId: string;
  outcome: 'completed' | 'cancelled' | 'failed';
  /** What went wrong, for a failed turn. */
  failure?: string;
}

export interface ChaosUserOptions {
  /** The load balancer's URL. */
  baseUrl: string;
  /** 1, 2, …: the user is `user-<n>`, its thread `<threadPrefix>-<n>`. */
  user: number;
  token: string;
  threadPrefix: string;
  /** Whether this user's approvals come from the schedule (else the user answers at once). */
  reviewed: boolean;
  /** This user's own random stream (its own answers). */
  random: SeededStream;
  /** How long the client keeps following a run it lost, in ms (see `ReconnectOptions.timeoutMs`). */
  reconnectTimeoutMs: number;
}

/** The pause before a user looks at its thread after a run ended without an answer, in ms (plus up to as much jitter). */
const RETRY_PAUSE_MS = 250;

/** A terminal event, as the subscriber saw it. */
type Terminal =
  { type: 'finished'; interrupts: { id: string }[] } | { type: 'error'; code: string };

/**
 * One simulated user: one thread, turn after turn through the load balancer with the package's
 * `ResumableHttpAgent` (stable message ids; it retries `RUN_INTERRUPTED`, 503 with
 * `Retry-After` and network errors, and follows handovers by joining with `Last-Event-ID`).
 * Every tool call waits for approval: the user answers at once, or, when `reviewed`, waits for
 * the schedule's answer. A run that ends any other way (`LEASE_LOST`, `RUN_NOT_SAVED`, a
 * client error) is reconciled from the thread's status: continued, answered or resent. Every
 * request and its status is recorded.
 */
export class ChaosUser {
  readonly name: string;
  readonly threadId: string;
  readonly turns: TurnRecord[] = [];
  /** Every request made for this user, in order. */
  readonly requests: RecordedRequest[] = [];
  /** Ids of the messages the streams reported finished (saved). */
  readonly finishedMessageIds = new Set<string>();
  /** `RUN_ERROR` codes seen, with counts. */
  readonly runErrors = new Map<string, number>();
  /** Approvals answered, by who answered. */
  readonly approvals = { bySchedule: 0, byUser: 0, rejected: 0 };
  readonly answers = new ApprovalAnswers();
  /** The first client-side errors (a request refused for good, a reconnect deadline), for the logs. */
  readonly clientErrors: string[] = [];
  private readonly agent: ResumableHttpAgent;
  private readonly fetcher: (url: string, init: RequestInit) => Promise<Response>;
  private turn = 0;

  constructor(private readonly options: ChaosUserOptions) {
    this.name = `user-${options.user}`;
    this.threadId = `${options.threadPrefix}-${options.user}`;
    this.fetcher = recordingFetch(this.name, () => this.turn, this.requests);
    this.agent = new ResumableHttpAgent({
      url: `${options.baseUrl}/v1/runs`,
      headers: { Authorization: `Bearer ${options.token}`, Connection: 'close' },
      threadId: this.threadId,
      fetch: this.fetcher,
      // A paused instance holds its streams silent: drop them soon and join elsewhere.
      reconnect: { timeoutMs: options.reconnectTimeoutMs, idleTimeoutMs: 8_000 },
    });
  }

  get token(): string {
    return this.options.token;
  }

  /** Ids of the user messages sent, one per turn. */
  get sentMessageIds(): string[] {
    return this.turns.map((turn) => turn.messageId);
  }

  /** Runs turns while `going()` holds, each to its end (completed, cancelled, or failed after `turnDeadlineMs`). */
  async converse(going: () => boolean, turnDeadlineMs: number): Promise<void> {
    while (going()) await this.runTurn(turnDeadlineMs);
  }

  /** Asks the service to stop this user's active run (`POST /v1/runs/{threadId}/cancel`); resolves with the status. */
  async cancel(): Promise<number | undefined> {
    const url = `${this.options.baseUrl}/v1/runs/${encodeURIComponent(this.threadId)}/cancel`;
    const headers = { authorization: `Bearer ${this.options.token}`, connection: 'close' };
    return this.fetcher(url, { method: 'POST', headers, signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.status,
      () => undefined,
    );
  }

  private async runTurn(turnDeadlineMs: number): Promise<void> {
    const turn = ++this.turn;
    const messageId = `${this.threadId}-turn-${turn}`;
    const record: TurnRecord = { turn, messageId, outcome: 'failed' };
    this.turns.push(record);
    this.agent.addMessage({
      id: messageId,
      role: 'user',
      content: `Turn ${turn}: do the demo task.`,
    });
    // Time spent waiting for a human's answer is the user's, not the service's: it moves the deadline.
    let deadline = Date.now() + turnDeadlineMs;
    const runIds = new Set<string>();
    const answerAll = async (interruptIds: string[]) => {
      const answered = await this.answer(interruptIds, turnDeadlineMs);
      deadline += answered.waitedMs;
      return answered.entries;
    };
    let resume: ResumeEntry[] | undefined;
    while (Date.now() < deadline) {
      const runId = randomUUID();
      runIds.add(runId);
      const terminal = await this.runOnce(runId, resume);
      resume = undefined;
      if (terminal?.type === 'finished' && terminal.interrupts.length === 0)
        return void (record.outcome = 'completed');
      if (terminal?.type === 'finished') {
        resume = await answerAll(terminal.interrupts.map((i) => i.id));
        continue;
      }
      if (terminal?.type === 'error' && terminal.code === 'RUN_CANCELED')
        return void (record.outcome = 'cancelled');
      // Any other end: the run may go on elsewhere, or wait; the thread says which.
      await sleep(RETRY_PAUSE_MS + this.options.random.int(0, RETRY_PAUSE_MS));
      const thread = await this.settled(deadline);
      if (!thread) break;
      // The thread's status, not the agent's memory of an interrupt it saw earlier, says what waits.
      this.agent.pendingInterrupts = [];
      const ownRun = thread.lastRun !== null && runIds.has(thread.lastRun.runId);
      if (thread.status === 'idle' && ownRun && thread.lastRun?.status === 'completed')
        return void (record.outcome = 'completed');
      if (thread.status === 'idle' && ownRun && thread.lastRun?.status === 'canceled')
        return void (record.outcome = 'cancelled');
      if (thread.status === 'awaiting_approval')
        resume = await answerAll(pendingInterrupts(thread));
    }
    record.failure = `turn ${turn} did not end within ${turnDeadlineMs} ms`;
  }

  /** One `runAgent` call; its terminal event, or undefined when it failed without one (the error is recorded). */
  private async runOnce(
    runId: string,
    resume: ResumeEntry[] | undefined,
  ): Promise<Terminal | undefined> {
    const reader = new StreamReader();
    let terminal: Terminal | undefined;
    const onEvent = ({ event }: { event: BaseEvent }) => {
      reader.read(event as StreamEvent);
      const e = event as {
        type: string;
        code?: string;
        outcome?: { type?: string; interrupts?: { id: string }[] };
      };
      if (e.type === 'RUN_FINISHED')
        terminal = {
          type: 'finished',
          interrupts: e.outcome?.type === 'interrupt' ? (e.outcome.interrupts ?? []) : [],
        };
      if (e.type === 'RUN_ERROR') terminal = { type: 'error', code: e.code ?? 'UNKNOWN' };
    };
    // A failure is handled here (the thread's status decides what next): `stopPropagation` keeps
    // @ag-ui/client 1.0.0 from logging it to the console; its runtime reads the flag, its type omits it.
    const onRunFailed = ({ error }: { error: Error }): void => {
      if (!terminal) this.clientError(error);
      return { stopPropagation: true } as unknown as void;
    };
    await this.agent
      .runAgent({ runId, ...(resume ? { resume } : {}) }, { onEvent, onRunFailed })
      .catch((error: unknown) => {
        if (!terminal) this.clientError(error);
      });
    for (const id of reader.finished) this.finishedMessageIds.add(id);
    if (terminal?.type === 'error') this.count(terminal.code);
    return terminal;
  }

  /**
   * The answers to `interruptIds`: the schedule's (reviewed users, who wait for it up to
   * `patienceMs`, then approve themselves) or the user's own (mostly approvals); and how long
   * the user waited for them.
   */
  private async answer(
    interruptIds: string[],
    patienceMs: number,
  ): Promise<{ entries: ResumeEntry[]; waitedMs: number }> {
    const startedAt = Date.now();
    const entries: ResumeEntry[] = [];
    for (const interruptId of interruptIds) {
      let answer: ApprovalAnswer;
      if (this.options.reviewed) {
        const given = await this.answers.next(patienceMs);
        answer = given.answer;
        if (given.by === 'schedule') this.approvals.bySchedule++;
        else this.approvals.byUser++;
      } else {
        answer = this.options.random.int(0, 9) === 0 ? 'reject' : 'approve';
        this.approvals.byUser++;
      }
      if (answer === 'reject') this.approvals.rejected++;
      entries.push(
        answer === 'approve'
          ? { interruptId, status: 'resolved', payload: { approved: true } }
          : { interruptId, status: 'cancelled' },
      );
    }
    return { entries, waitedMs: Date.now() - startedAt };
  }

  private settled(deadline: number): Promise<ThreadStatus | undefined> {
    const url = `${this.options.baseUrl}/v1/threads/${encodeURIComponent(this.threadId)}`;
    return settledThread(
      this.fetcher as typeof fetch,
      url,
      this.options.token,
      Math.max(0, deadline - Date.now()),
    );
  }

  private clientError(error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.count(`client ${error instanceof Error ? error.name : 'error'}`);
    if (this.clientErrors.length < 20) this.clientErrors.push(text.slice(0, 300));
  }

  private count(code: string): void {
    this.runErrors.set(code, (this.runErrors.get(code) ?? 0) + 1);
  }
}
