import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import type { StopDecision } from '../agent/agent-hook.interface.js';
import type { AgentVersionChange } from '../agent/agent-release.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { ModelUsage } from '../agent/agent-model.interface.js';
import { HookChain } from '../agent/hook-chain.js';
import type { StopRequest } from '../agent/run-control.js';
import { stepEvent, toolResultEvent } from '../agent/run-events.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import type { ToolCallRecord } from '../contracts/session-records.js';
import { StopReason, type RunPhase } from '../agent/stop-reason.js';
import { RunStoppedError } from '../errors/run-stopped.error.js';
import { OUTCOME_UNKNOWN_RESULT } from '../resume/resume-message.js';
import { RunAnswerStream, type AnswerOwner } from './answer-stream.js';
import type { RunHandle, SafePoint, ToolCallResult } from './run-handle.interface.js';
import { outcomeOf, type DecidedStop } from './outcome-of.js';
import { PendingCalls } from './pending-calls.js';
import { RunWrites } from './run-writes.js';
import { writeStep } from './checkpointer-step.js';
import type { RunHandleSpec } from './run-handle.types.js';
import { runThroughRecords, type ToolRunHost } from './run-through-records.js';
import { NO_INSTRUMENTS, type RunInstruments } from './run-instruments.js';
import { estimateMessageTokens, estimateTokens } from '../agent/discarded-tokens.js';

const GO: SafePoint = { stop: false };

/**
 * The module's side of one run: hooks asked at every safe point, every write serialised and
 * fenced, tool calls recorded one by one (also when a step runs them concurrently), and the
 * outcome worked out once at the end.
 */
export class DurableRunHandle implements RunHandle, AnswerOwner, ToolRunHost {
  readonly threadId: string;
  readonly runId: string;
  readonly fencingToken: number;
  readonly pendingToolCalls: readonly ToolCall[];
  readonly prelude: readonly AgentMessage[];
  readonly resumed: boolean;
  readonly versionChange: AgentVersionChange | null;
  private readonly hooks: HookChain;
  private readonly conversation: AgentMessage[];
  /** The tool messages of the conversation by the call they answer. */
  private readonly results = new Map<string, AgentMessage>();
  /** Every store write of the run, in order, with an answer held for its first call's started record (see {@link RunWrites}). */
  private readonly writes = new RunWrites(
    (step, progress) => this.timed(() => writeStep(this.spec.checkpointer, step, progress)),
    () => this.progress(),
    (message, answer) => this.answerWritten(message, answer),
  );
  /** Tool calls in progress: a run ends only once each has settled and been recorded. */
  private readonly running = new Set<Promise<unknown>>();
  /** Calls of the current step without a result, in order. */
  private readonly pending = new PendingCalls();
  /** Calls the model asked for during this run: no record of them can predate it. */
  private readonly bornHere = new Set<string>();
  private state: unknown;
  private currentIteration = 0;
  private currentPhase: RunPhase = 'reasoning';
  private actingOpen = false;
  private answeredFinal = false;
  private decided?: DecidedStop;
  private usage?: ModelUsage;
  private outcome?: Promise<RunOutcome>;
  private readonly instruments: RunInstruments;

  constructor(private readonly spec: RunHandleSpec) {
    this.threadId = spec.threadId;
    this.runId = spec.runId;
    this.fencingToken = spec.fencingToken ?? 0;
    this.pendingToolCalls = spec.pendingToolCalls ?? [];
    this.prelude = spec.prelude ?? [];
    this.resumed = spec.resumed ?? false;
    this.versionChange = spec.versionChange ?? null;
    this.state = spec.savedState ?? null;
    this.hooks = new HookChain(spec.hooks);
    this.instruments = spec.instruments ?? NO_INSTRUMENTS;
    this.conversation = [];
    this.remember(spec.history);
  }

  get signal(): AbortSignal {
    return this.spec.control.signal;
  }

  get stopRequest(): StopRequest | undefined {
    return this.spec.control.stopRequest;
  }

  get messages(): readonly AgentMessage[] {
    return this.conversation;
  }

  toolResult(toolCallId: string): AgentMessage | undefined {
    return this.results.get(toolCallId);
  }

  get savedState(): unknown {
    return this.state;
  }

  get iteration(): number {
    return this.currentIteration;
  }

  get phase(): RunPhase {
    return this.currentPhase;
  }

  /** Fires the run-start hooks (registration, lease, cancel subscription); the module calls it before the agent runs. */
  async begin(): Promise<void> {
    await this.hooks.onRunStart({
      ...this.base(),
      control: this.spec.control,
      messages: this.conversation,
    });
  }

  async prepare(
    execute: (call: ToolCall, signal: AbortSignal) => Promise<string>,
  ): Promise<readonly AgentMessage[]> {
    this.pending.add(...this.pendingToolCalls);
    for (const call of this.pendingToolCalls)
      await this.runTool(call, (signal) => execute(call, signal));
    if (this.spec.preludeStored) this.remember(this.prelude);
    else await this.checkpoint(this.prelude);
    return this.conversation;
  }

  async beforeReasoning(info: { expectedDurationMs?: number } = {}): Promise<SafePoint> {
    await this.writes.writeHeld();
    this.currentPhase = 'reasoning';
    this.answeredFinal = false;
    const decision =
      this.requested() ??
      (await this.hooks.decide('preReasoning', {
        ...this.base(),
        messages: this.conversation,
        expectedDurationMs: info.expectedDurationMs,
      }));
    if (decision) return this.decide(decision, 'reasoning');
    this.currentIteration++;
    this.instruments.stepStarted('reasoning', this.currentIteration);
    this.spec.emit(stepEvent('start', 'reasoning'));
    return GO;
  }

  async beforeActing(
    call: ToolCall,
    info: { expectedDurationMs?: number } = {},
  ): Promise<SafePoint> {
    const point = await this.preActing(call, info);
    // A call that does not pass leaves its answer durable on its own, and itself not started.
    if (point.stop) await this.writes.writeHeld();
    return point;
  }

  private async preActing(
    call: ToolCall,
    info: { expectedDurationMs?: number },
  ): Promise<SafePoint> {
    this.currentPhase = 'acting';
    this.pending.add(call);
    if (!this.actingOpen) {
      this.actingOpen = true;
      // The acting step opens once its answer is durable and ended (see `answerWritten`).
      if (!this.writes.holding) this.openActingStep();
    }
    if (this.awaitsApproval(call)) {
      const awaiting = this.pending.notStarted().filter((c) => this.awaitsApproval(c));
      return this.decide(
        {
          stop: StopReason.AwaitingApproval,
          detail: `waiting for approval of ${awaiting.length} tool call(s)`,
        },
        'acting',
        awaiting,
      );
    }
    const traits = this.spec.toolTraits?.(call.name);
    const notStarted = this.pending.notStarted();
    const decision =
      this.requested() ??
      (await this.hooks.decide('preActing', {
        ...this.base(),
        toolCall: call,
        pendingToolCalls: [call, ...notStarted.filter((c) => c.id !== call.id)],
        expectedDurationMs: info.expectedDurationMs ?? traits?.expectedDurationMs,
      }));
    return decision ? this.decide(decision, 'acting') : GO;
  }

  stopped(point: Extract<SafePoint, { stop: true }>): Error {
    this.decided ??= {
      decision: { stop: point.reason, detail: point.detail },
      phase: this.currentPhase,
    };
    return new RunStoppedError(point.reason, point.detail);
  }

  startAnswer(): RunAnswerStream {
    return new RunAnswerStream(randomUUID(), this.spec.emit, this);
  }

  async completeAnswer(message: AgentMessage, answer: RunAnswerStream): Promise<void> {
    const calls = message.toolCalls ?? [];
    this.instruments.modelAnswered(calls.length);
    if (calls.length === 0) {
      await this.checkpoint([message]);
      this.answerWritten(message, answer);
    } else {
      // Held for the first started record of its calls: no call runs before the answer is durable.
      this.writes.hold(message, answer);
      this.remember([message]);
    }
    for (const call of calls) {
      this.bornHere.add(call.id);
      this.pending.add(call);
    }
    this.answeredFinal = calls.length === 0;
    const phase: RunPhase = calls.length ? 'acting' : 'reasoning';
    const after = await this.hooks.decide('postReasoning', { ...this.base(), message });
    if (after) throw this.stopped(this.decide(after, phase) as Extract<SafePoint, { stop: true }>);
  }

  modelCallCut(streamedCharacters: number): void {
    // Only a stop counts: a model that failed mid-answer is the provider's cost, not a shutdown's.
    if (!this.signal.aborted) return;
    // A call cut off reports no usage: its input (the messages it was sent) and output are estimated.
    this.instruments.modelTokensDiscarded({
      input: estimateMessageTokens(this.messages),
      output: estimateTokens(streamedCharacters),
      source: 'estimate',
    });
  }

  async saveCutOff(message: AgentMessage): Promise<void> {
    // Only a stop cuts an answer off; a model that failed mid-answer keeps nothing of it.
    if ((this.spec.partialOutput ?? 'save') === 'save' && this.signal.aborted)
      await this.checkpoint([message]);
  }

  async checkpoint(messages: readonly AgentMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.writes.submit({ messages });
    this.remember(messages);
  }

  async commitStep(step: { messages?: readonly AgentMessage[]; state?: unknown }): Promise<void> {
    const messages = step.messages ?? [];
    const saving = step.state !== undefined;
    if (messages.length === 0 && !saving) return;
    await this.writes.submit({
      ...(messages.length ? { messages } : {}),
      ...(saving ? { state: step.state } : {}),
    });
    this.remember(messages);
    if (saving) this.state = step.state;
  }

  async toolStarted(call: ToolCall): Promise<void> {
    await this.writes.submit({ startedCalls: [call] });
    this.pending.start(call);
  }

  async toolFinished(call: ToolCall, content: string): Promise<AgentMessage> {
    const message = await this.answerCall(call, content);
    const after = await this.hooks.decide('postActing', {
      ...this.base(),
      toolCall: call,
      result: message,
    });
    if (after)
      throw this.stopped(this.decide(after, 'acting') as Extract<SafePoint, { stop: true }>);
    this.closeActingStep();
    return message;
  }

  async toolOutcomeUnknown(call: ToolCall): Promise<AgentMessage> {
    const message = await this.answerCall(call, OUTCOME_UNKNOWN_RESULT);
    this.closeActingStep();
    return message;
  }

  runTool(
    call: ToolCall,
    execute: (signal: AbortSignal) => Promise<string>,
  ): Promise<ToolCallResult> {
    const running = runThroughRecords(this, call, (signal) =>
      this.instruments.tool(call, () => execute(signal)),
    );
    this.running.add(running);
    void running.catch(() => undefined).finally(() => this.running.delete(running));
    return running;
  }

  async saveState(state: unknown): Promise<void> {
    await this.writes.submit({ state: state ?? null });
    this.state = state;
  }

  reportUsage(usage: ModelUsage): void {
    this.instruments.modelUsage(usage);
    this.usage = {
      promptTokens: (this.usage?.promptTokens ?? 0) + usage.promptTokens,
      completionTokens: (this.usage?.completionTokens ?? 0) + usage.completionTokens,
      totalTokens: (this.usage?.totalTokens ?? 0) + usage.totalTokens,
    };
  }

  emit(event: BaseEvent): void {
    this.spec.emit(event);
  }

  finish(...failure: unknown[]): Promise<RunOutcome> {
    this.outcome ??= this.end(failure.length > 0, failure[0]);
    return this.outcome;
  }

  private async end(failed: boolean, error: unknown): Promise<RunOutcome> {
    // Calls still in flight (a framework may give up on a step while its other calls run) and
    // their writes settle first: the outcome describes what is durable.
    if (this.running.size) await Promise.allSettled([...this.running]);
    try {
      await this.writes.writeHeld();
    } catch (writeError) {
      if (!failed) [failed, error] = [true, writeError];
    }
    await this.writes.idle();
    const outcome = outcomeOf({
      decided: this.decided,
      request: this.stopRequest,
      failed,
      error,
      answeredFinal: this.answeredFinal,
      phase: this.currentPhase,
      iteration: this.currentIteration,
      pending: this.pending.list(),
    });
    if (this.usage) outcome.usage = this.usage;
    this.instruments.stopped(outcome.stopReason);
    await this.hooks.onRunEnd({ ...this.base(), outcome });
    return outcome;
  }

  async earlierRecord(call: ToolCall): Promise<ToolCallRecord | undefined> {
    if (this.bornHere.has(call.id) || !this.spec.checkpointer.findToolCalls) return undefined;
    const [record] = await this.spec.checkpointer.findToolCalls([call.id]);
    return record;
  }

  async answerKnown(call: ToolCall, content: string): Promise<AgentMessage> {
    const message = await this.answerCall(call, content);
    this.closeActingStep();
    return message;
  }

  acknowledge(callId: string): void {
    this.pending.resolve(callId);
    this.closeActingStep();
  }

  leftRunning(call: ToolCall, work: Promise<unknown>): void {
    this.spec.toolLeftRunning?.(call, work);
  }

  isIdempotent(name: string): boolean {
    return this.spec.toolTraits?.(name)?.idempotent === true;
  }

  /** The answer is durable: the client sees its end, the reasoning step ends and, when its calls are under way, the acting step opens. */
  private answerWritten(message: AgentMessage, answer: RunAnswerStream): void {
    answer.finishEvents(message);
    this.spec.emit(stepEvent('finish', 'reasoning'));
    this.instruments.stepEnded('reasoning');
    if (this.actingOpen) this.openActingStep();
  }

  private openActingStep(): void {
    this.instruments.stepStarted('acting', this.currentIteration);
    this.spec.emit(stepEvent('start', 'acting'));
  }

  /** Runs one checkpoint write, reporting how long it took. */
  private async timed<T>(write: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    const result = await write();
    this.instruments.checkpointWritten((performance.now() - startedAt) / 1_000);
    return result;
  }

  /** Adds durable messages to the conversation. */
  private remember(messages: readonly AgentMessage[]): void {
    for (const message of messages) {
      this.conversation.push(message);
      if (message.role === 'tool' && message.toolCallId)
        this.results.set(message.toolCallId, message);
    }
  }

  /** Stores the call's tool message (which also finishes its record) and tells the client. */
  private async answerCall(call: ToolCall, content: string): Promise<AgentMessage> {
    const message: AgentMessage = { id: randomUUID(), role: 'tool', content, toolCallId: call.id };
    await this.checkpoint([message]);
    this.pending.resolve(call.id);
    this.spec.emit(toolResultEvent(message));
    return message;
  }

  private closeActingStep(): void {
    if (!this.actingOpen || this.pending.size > 0) return;
    this.actingOpen = false;
    this.spec.emit(stepEvent('finish', 'acting'));
    this.instruments.stepEnded('acting');
  }

  private decide(decision: StopDecision, phase: RunPhase, approvals?: ToolCall[]): SafePoint {
    this.decided ??= { decision, phase, ...(approvals ? { approvals } : {}) };
    return { stop: true, reason: decision.stop, detail: decision.detail };
  }

  /** A stop already asked for (shutdown, cancel, lost lease) is taken at the first safe point. */
  private requested(): StopDecision | undefined {
    // Once a stop is decided, every later safe point answers it too (a framework that carries
    // on past a stopped tool call, or the other calls of a concurrent step).
    if (this.decided) return this.decided.decision;
    const request = this.stopRequest;
    return request ? { stop: request.reason, detail: request.detail } : undefined;
  }

  private awaitsApproval(call: ToolCall): boolean {
    return (
      this.spec.toolTraits?.(call.name)?.requiresApproval === true &&
      !this.spec.approvedToolCallIds?.has(call.id)
    );
  }

  private base() {
    return { threadId: this.threadId, runId: this.runId, iteration: this.currentIteration };
  }

  private progress() {
    return { iteration: this.currentIteration, phase: this.currentPhase };
  }
}
