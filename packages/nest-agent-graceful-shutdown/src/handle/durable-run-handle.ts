import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { abortable, CallAbortedError } from '../agent/abortable';
import type { AgentHook, StopDecision } from '../agent/agent-hook.interface';
import type { AgentMessage, ToolCall } from '../agent/agent-message';
import type { ModelUsage } from '../agent/agent-model.interface';
import type { PartialOutputPolicy } from '../agent/agent-runtime';
import { HookChain } from '../agent/hook-chain';
import type { RunControl, StopRequest } from '../agent/run-control';
import { stepEvent, toolResultEvent, type RunEventSink } from '../agent/run-events';
import type { PendingToolCall, RunOutcome } from '../agent/run-outcome';
import type { StepCheckpointer } from '../agent/step-checkpointer.interface';
import { StopReason, type RunPhase } from '../agent/stop-reason';
import { RunStoppedError } from '../errors/run-stopped.error';
import { OUTCOME_UNKNOWN_RESULT } from '../resume/resume-message';
import { RunAnswerStream, type AnswerOwner } from './answer-stream';
import type { RunHandle, SafePoint, ToolCallResult, ToolTraits } from './run-handle.interface';
import { SerialWrites } from './serial-writes';

const GO: SafePoint = { stop: false };

/** Everything one run's handle is made from. */
export interface RunHandleSpec {
  threadId: string;
  runId: string;
  /** The stored history, oldest first. */
  history: readonly AgentMessage[];
  /** Calls of the interrupted or approved step, run by `prepare`. */
  pendingToolCalls?: readonly ToolCall[];
  /** Appended by `prepare` after them: the resume message, the new user messages. */
  prelude?: readonly AgentMessage[];
  /** Calls a human approved: they run without pausing again. */
  approvedToolCallIds?: ReadonlySet<string>;
  /** True when the run continues an interrupted one. */
  resumed?: boolean;
  /** The framework state an earlier run saved. */
  savedState?: unknown;
  hooks: readonly AgentHook[];
  control: RunControl;
  checkpointer: StepCheckpointer;
  emit: RunEventSink;
  /** @default 'save' */
  partialOutput?: PartialOutputPolicy;
  /** What the module knows of a tool by name. */
  toolTraits?: (name: string) => ToolTraits | undefined;
}

/** A stop decided at a safe point, with where. */
interface Decided {
  decision: StopDecision;
  phase: RunPhase;
  approvals?: ToolCall[];
}

/**
 * The module's side of one run: hooks asked at every safe point, every write serialised and
 * fenced, tool calls recorded one by one (also when a step runs them concurrently), and the
 * outcome worked out once at the end.
 */
export class DurableRunHandle implements RunHandle, AnswerOwner {
  readonly threadId: string;
  readonly runId: string;
  readonly pendingToolCalls: readonly ToolCall[];
  readonly prelude: readonly AgentMessage[];
  readonly resumed: boolean;
  private readonly hooks: HookChain;
  private readonly conversation: AgentMessage[];
  private readonly writes = new SerialWrites();
  /** Calls of the current step without a result, in order. */
  private readonly pending = new Map<string, PendingToolCall>();
  /** Calls the model asked for during this run: no record of them can predate it. */
  private readonly bornHere = new Set<string>();
  private state: unknown;
  private currentIteration = 0;
  private currentPhase: RunPhase = 'reasoning';
  private actingOpen = false;
  private answeredFinal = false;
  private decided?: Decided;
  private usage?: ModelUsage;
  private outcome?: Promise<RunOutcome>;

  constructor(private readonly spec: RunHandleSpec) {
    this.threadId = spec.threadId;
    this.runId = spec.runId;
    this.pendingToolCalls = spec.pendingToolCalls ?? [];
    this.prelude = spec.prelude ?? [];
    this.resumed = spec.resumed ?? false;
    this.state = spec.savedState ?? null;
    this.hooks = new HookChain(spec.hooks);
    this.conversation = [...spec.history];
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
    await this.hooks.onRunStart({ ...this.base(), control: this.spec.control, messages: this.conversation });
  }

  async prepare(execute: (call: ToolCall, signal: AbortSignal) => Promise<string>): Promise<readonly AgentMessage[]> {
    for (const call of this.pendingToolCalls) this.pending.set(call.id, { ...call, started: false });
    for (const call of this.pendingToolCalls) await this.runTool(call, (signal) => execute(call, signal));
    if (this.prelude.length) await this.checkpoint(this.prelude);
    return this.conversation;
  }

  async beforeReasoning(info: { expectedDurationMs?: number } = {}): Promise<SafePoint> {
    this.currentPhase = 'reasoning';
    this.answeredFinal = false;
    const decision =
      this.requested() ??
      (await this.hooks.decide('preReasoning', { ...this.base(), messages: this.conversation, expectedDurationMs: info.expectedDurationMs }));
    if (decision) return this.decide(decision, 'reasoning');
    this.currentIteration++;
    this.spec.emit(stepEvent('start', 'reasoning'));
    return GO;
  }

  async beforeActing(call: ToolCall, info: { expectedDurationMs?: number } = {}): Promise<SafePoint> {
    this.currentPhase = 'acting';
    if (!this.pending.has(call.id)) this.pending.set(call.id, { ...call, started: false });
    if (!this.actingOpen) {
      this.actingOpen = true;
      this.spec.emit(stepEvent('start', 'acting'));
    }
    if (this.awaitsApproval(call)) {
      const awaiting = this.notStarted().filter((c) => this.awaitsApproval(c));
      return this.decide({ stop: StopReason.AwaitingApproval, detail: `waiting for approval of ${awaiting.length} tool call(s)` }, 'acting', awaiting);
    }
    const traits = this.spec.toolTraits?.(call.name);
    const notStarted = this.notStarted();
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
    this.decided ??= { decision: { stop: point.reason, detail: point.detail }, phase: this.currentPhase };
    return new RunStoppedError(point.reason, point.detail);
  }

  startAnswer(): RunAnswerStream {
    return new RunAnswerStream(randomUUID(), this.spec.emit, this);
  }

  async completeAnswer(message: AgentMessage, answer: RunAnswerStream): Promise<void> {
    await this.checkpoint([message]);
    answer.finishEvents(message);
    this.spec.emit(stepEvent('finish', 'reasoning'));
    const calls = message.toolCalls ?? [];
    for (const call of calls) {
      this.bornHere.add(call.id);
      this.pending.set(call.id, { ...call, started: false });
    }
    this.answeredFinal = calls.length === 0;
    const phase: RunPhase = calls.length ? 'acting' : 'reasoning';
    const after = await this.hooks.decide('postReasoning', { ...this.base(), message });
    if (after) throw this.stopped(this.decide(after, phase) as Extract<SafePoint, { stop: true }>);
  }

  async saveCutOff(message: AgentMessage): Promise<void> {
    // Only a stop cuts an answer off; a model that failed mid-answer keeps nothing of it.
    if ((this.spec.partialOutput ?? 'save') === 'save' && this.signal.aborted) await this.checkpoint([message]);
  }

  async checkpoint(messages: readonly AgentMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const progress = this.progress();
    await this.writes.run(() => this.spec.checkpointer.append(messages, progress));
    this.conversation.push(...messages);
  }

  async toolStarted(call: ToolCall): Promise<void> {
    const progress = this.progress();
    await this.writes.run(async () => this.spec.checkpointer.toolCallStarted?.(call, progress));
    const entry = this.pending.get(call.id);
    if (entry) entry.started = true;
    else this.pending.set(call.id, { ...call, started: true });
  }

  async toolFinished(call: ToolCall, content: string): Promise<AgentMessage> {
    const message = await this.answerCall(call, content);
    const after = await this.hooks.decide('postActing', { ...this.base(), toolCall: call, result: message });
    if (after) throw this.stopped(this.decide(after, 'acting') as Extract<SafePoint, { stop: true }>);
    this.closeActingStep();
    return message;
  }

  async toolOutcomeUnknown(call: ToolCall): Promise<AgentMessage> {
    const message = await this.answerCall(call, OUTCOME_UNKNOWN_RESULT);
    this.closeActingStep();
    return message;
  }

  async runTool(call: ToolCall, execute: (signal: AbortSignal) => Promise<string>): Promise<ToolCallResult> {
    const known = await this.knownResult(call);
    if (known) return known;
    const point = await this.beforeActing(call);
    if (point.stop) throw this.stopped(point);
    await this.toolStarted(call);
    let content: string;
    try {
      content = await abortable(execute(this.signal), this.signal);
    } catch (error) {
      if (error instanceof CallAbortedError || this.signal.aborted) throw error;
      // The model is told of the failure; the record says it ran, so it is not run again.
      await this.toolFinished(call, `error: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
    const message = await this.toolFinished(call, content);
    return { content, source: 'executed', messageId: message.id };
  }

  async saveState(state: unknown): Promise<void> {
    const progress = this.progress();
    await this.writes.run(async () => this.spec.checkpointer.saveState?.(state, progress));
    this.state = state;
  }

  reportUsage(usage: ModelUsage): void {
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
    // Writes still in flight (concurrent tool calls) settle first: the outcome describes what is durable.
    await this.writes.idle();
    const outcome = this.outcomeOf(failed, error);
    if (this.usage) outcome.usage = this.usage;
    await this.hooks.onRunEnd({ ...this.base(), outcome });
    return outcome;
  }

  private outcomeOf(failed: boolean, error: unknown): RunOutcome {
    const common = { iteration: this.currentIteration, pendingToolCalls: [...this.pending.values()] };
    const request = this.stopRequest;
    if (this.decided) {
      const { decision, phase, approvals } = this.decided;
      // A hook that relays the run's own stop request (the shutdown hook does) keeps its error.
      const relayed = request?.reason === decision.stop ? request.error : undefined;
      return { ...common, stopReason: decision.stop, detail: decision.detail, error: relayed, phase, ...(approvals ? { approvals } : {}) };
    }
    if (request && (failed || !this.answeredFinal)) {
      return { ...common, stopReason: request.reason, detail: request.detail, error: request.error, phase: this.currentPhase };
    }
    if (failed) {
      const failure = error instanceof Error ? error : new Error(String(error));
      return { ...common, stopReason: StopReason.Failed, error: failure, phase: this.currentPhase };
    }
    return { ...common, stopReason: StopReason.Completed, phase: 'reasoning', pendingToolCalls: [] };
  }

  /** A call whose result is already known: recorded by an earlier attempt, or possibly run and not safe to repeat. */
  private async knownResult(call: ToolCall): Promise<ToolCallResult | undefined> {
    const answered = this.conversation.find((m) => m.role === 'tool' && m.toolCallId === call.id);
    if (answered) {
      this.pending.delete(call.id);
      this.closeActingStep();
      return { content: answered.content, source: 'recorded', messageId: answered.id };
    }
    if (this.bornHere.has(call.id) || !this.spec.checkpointer.findToolCalls) return undefined;
    const [record] = await this.spec.checkpointer.findToolCalls([call.id]);
    if (!record) return undefined;
    if (record.status === 'finished') {
      const message = await this.answerCall(call, record.result ?? '');
      this.closeActingStep();
      return { content: message.content, source: 'recorded', messageId: message.id };
    }
    if (this.spec.toolTraits?.(call.name)?.idempotent) return undefined;
    const message = await this.toolOutcomeUnknown(call);
    return { content: message.content, source: 'outcome_unknown', messageId: message.id };
  }

  /** Stores the call's tool message (which also finishes its record) and tells the client. */
  private async answerCall(call: ToolCall, content: string): Promise<AgentMessage> {
    const message: AgentMessage = { id: randomUUID(), role: 'tool', content, toolCallId: call.id };
    await this.checkpoint([message]);
    this.pending.delete(call.id);
    this.spec.emit(toolResultEvent(message));
    return message;
  }

  private closeActingStep(): void {
    if (!this.actingOpen || this.pending.size > 0) return;
    this.actingOpen = false;
    this.spec.emit(stepEvent('finish', 'acting'));
  }

  private decide(decision: StopDecision, phase: RunPhase, approvals?: ToolCall[]): SafePoint {
    this.decided ??= { decision, phase, ...(approvals ? { approvals } : {}) };
    return { stop: true, reason: decision.stop, detail: decision.detail };
  }

  /** A stop already asked for (shutdown, cancel, lost lease) is taken at the first safe point. */
  private requested(): StopDecision | undefined {
    const request = this.stopRequest;
    return request ? { stop: request.reason, detail: request.detail } : undefined;
  }

  private awaitsApproval(call: ToolCall): boolean {
    return this.spec.toolTraits?.(call.name)?.requiresApproval === true && !this.spec.approvedToolCallIds?.has(call.id);
  }

  private notStarted(): ToolCall[] {
    return [...this.pending.values()].filter((c) => !c.started).map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
  }

  private base() {
    return { threadId: this.threadId, runId: this.runId, iteration: this.currentIteration };
  }

  private progress() {
    return { iteration: this.currentIteration, phase: this.currentPhase };
  }
}
