import { randomUUID } from 'node:crypto';
import { CallAbortedError, abortable } from './abortable';
import type { AgentDefinition } from './agent-definition';
import type { AgentHook, StopDecision } from './agent-hook.interface';
import type { AgentMessage, ToolCall } from './agent-message';
import { HookChain } from './hook-chain';
import type { RunControl } from './run-control';
import type { ModelResponse, ModelUsage } from './agent-model.interface';
import { stepEvent, toolResultEvent, type RunEventSink } from './run-events';
import { StreamedAnswer } from './streamed-answer';
import type { PendingToolCall, RunOutcome } from './run-outcome';
import type { StepCheckpointer } from './step-checkpointer.interface';
import { StopReason, type RunPhase } from './stop-reason';
import { ToolExecutor } from './tool-executor';

const DEFAULT_MAX_ITERATIONS = 25;

/** What one run starts from. */
export interface AgentRunInput {
  threadId: string;
  runId: string;
  /** The stored history, oldest first. */
  history: readonly AgentMessage[];
  /** Tool calls of the last assistant message to run before reasoning (a resumed step). */
  pendingToolCalls?: readonly ToolCall[];
  /** Messages to append, after `pendingToolCalls`, before the first reasoning call. */
  prelude?: readonly AgentMessage[];
  /** Calls a human has approved: they run without pausing again. */
  approvedToolCallIds?: ReadonlySet<string>;
}

/** The collaborators of one run. */
export interface AgentRunEnvironment {
  hooks: readonly AgentHook[];
  control: RunControl;
  checkpointer: StepCheckpointer;
  emit: RunEventSink;
  /**
   * What happens to a model answer cut off by a stop: `save` keeps the text streamed so far as
   * an assistant message flagged `truncated` (tool calls still being streamed are dropped);
   * `discard` keeps nothing of it.
   * @default 'save'
   */
  partialOutput?: PartialOutputPolicy;
}

/** See `AgentRunEnvironment.partialOutput`. */
export type PartialOutputPolicy = 'save' | 'discard';

/** Thrown inside the loop to leave it at a safe point. */
class StopAt {
  constructor(
    readonly decision: StopDecision,
    readonly phase: RunPhase,
    readonly approvals?: ToolCall[],
  ) {}
}

/**
 * The ReAct loop: reasoning (one model call), then acting (the tool calls it asked for),
 * until the model answers without tools or the iteration limit is hit. Every finished step
 * is checkpointed before the next starts; hooks are asked at each safe point.
 */
export class AgentRuntime {
  private readonly tools: ToolExecutor;
  private readonly maxIterations: number;

  constructor(private readonly agent: AgentDefinition) {
    this.tools = new ToolExecutor(agent.tools);
    this.maxIterations = agent.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  }

  async run(input: AgentRunInput, env: AgentRunEnvironment): Promise<RunOutcome> {
    const hooks = new HookChain(env.hooks);
    const history = [...input.history];
    const base = { threadId: input.threadId, runId: input.runId };
    let iteration = 0;
    let phase: RunPhase = 'reasoning';
    let outcome: RunOutcome | undefined;
    let usage: ModelUsage | undefined;
    // The calls of the current step without a result: what an outcome reports as pending.
    let pending: PendingToolCall[] = [];

    const append = async (messages: AgentMessage[]) => {
      await env.checkpointer.append(messages, { iteration, phase });
      history.push(...messages);
    };

    const act = async (calls: readonly ToolCall[]) => {
      phase = 'acting';
      env.emit(stepEvent('start', 'acting'));
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i];
        const remaining = calls.slice(i);
        pending = remaining.map((c) => ({ ...c, started: false }));
        const awaiting = remaining.filter((c) => this.tools.requiresApproval(c.name) && !input.approvedToolCallIds?.has(c.id));
        if (awaiting.includes(call)) {
          throw new StopAt({ stop: StopReason.AwaitingApproval, detail: `waiting for approval of ${awaiting.length} tool call(s)` }, 'acting', awaiting);
        }
        const decision = await hooks.decide('preActing', {
          ...base,
          iteration,
          toolCall: call,
          pendingToolCalls: remaining,
          expectedDurationMs: this.tools.expectedDurationMs(call.name),
        });
        if (decision) throw new StopAt(decision, 'acting');
        await env.checkpointer.toolCallStarted?.(call, { iteration, phase });
        pending[0].started = true;
        const content = await this.tools.execute(call, { ...base, toolCallId: call.id, signal: env.control.signal });
        const result: AgentMessage = { id: randomUUID(), role: 'tool', content, toolCallId: call.id };
        await append([result]);
        pending = remaining.slice(1).map((c) => ({ ...c, started: false }));
        env.emit(toolResultEvent(result));
        const after = await hooks.decide('postActing', { ...base, iteration, toolCall: call, result });
        if (after) throw new StopAt(after, 'acting');
      }
      env.emit(stepEvent('finish', 'acting'));
    };

    try {
      await hooks.onRunStart({ ...base, iteration, control: env.control, messages: history });
      if (input.pendingToolCalls?.length) await act(input.pendingToolCalls);
      if (input.prelude?.length) await append([...input.prelude]);

      for (;;) {
        phase = 'reasoning';
        pending = [];
        if (iteration >= this.maxIterations) {
          throw new StopAt({ stop: StopReason.StepLimit, detail: `reached ${this.maxIterations} iterations` }, 'reasoning');
        }
        const decision = await hooks.decide('preReasoning', {
          ...base,
          iteration,
          messages: history,
          expectedDurationMs: this.agent.model.expectedDurationMs,
        });
        if (decision) throw new StopAt(decision, 'reasoning');
        iteration++;
        env.emit(stepEvent('start', 'reasoning'));
        const answer = new StreamedAnswer(randomUUID(), env.emit);
        let response: ModelResponse;
        try {
          response = await abortable(
            this.agent.model.generate(
              { messages: this.withSystemPrompt(history), tools: this.tools.definitions },
              { ...base, signal: env.control.signal, stream: answer },
            ),
            env.control.signal,
          );
        } catch (error) {
          answer.abort();
          if (error instanceof CallAbortedError && (env.partialOutput ?? 'save') === 'save' && answer.streamedText.length > 0) {
            await append([{ id: answer.messageId, role: 'assistant', content: answer.streamedText, truncated: true }]);
          }
          throw error;
        }
        if (response.usage) usage = addUsage(usage, response.usage);
        const message: AgentMessage = {
          id: answer.messageId,
          role: 'assistant',
          content: response.content,
          ...(response.toolCalls.length ? { toolCalls: response.toolCalls } : {}),
        };
        await append([message]);
        answer.finish(message);
        env.emit(stepEvent('finish', 'reasoning'));
        const calls = message.toolCalls ?? [];
        pending = calls.map((c) => ({ ...c, started: false }));
        const after = await hooks.decide('postReasoning', { ...base, iteration, message });
        if (after) throw new StopAt(after, calls.length ? 'acting' : 'reasoning');
        if (calls.length === 0) {
          outcome = { stopReason: StopReason.Completed, phase: 'reasoning', iteration, pendingToolCalls: [] };
          break;
        }
        await act(calls);
      }
    } catch (error) {
      outcome = this.toOutcome(error, env.control, phase, iteration, pending);
    } finally {
      outcome ??= { stopReason: StopReason.Failed, phase, iteration, pendingToolCalls: pending };
      if (usage) outcome.usage = usage;
      await hooks.onRunEnd({ ...base, iteration, outcome });
    }
    return outcome;
  }

  private toOutcome(error: unknown, control: RunControl, phase: RunPhase, iteration: number, pending: PendingToolCall[]): RunOutcome {
    const request = control.stopRequest;
    if (error instanceof StopAt) {
      // A hook that relays the run's own stop request (the shutdown hook does) keeps its error.
      const relayed = request?.reason === error.decision.stop ? request.error : undefined;
      return {
        stopReason: error.decision.stop,
        detail: error.decision.detail,
        error: relayed,
        phase: error.phase,
        iteration,
        pendingToolCalls: pending,
        ...(error.approvals ? { approvals: error.approvals } : {}),
      };
    }
    if (error instanceof CallAbortedError && request) {
      return { stopReason: request.reason, detail: request.detail, error: request.error, phase, iteration, pendingToolCalls: pending };
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    return { stopReason: StopReason.Failed, error: failure, phase, iteration, pendingToolCalls: pending };
  }

  private withSystemPrompt(history: readonly AgentMessage[]): readonly AgentMessage[] {
    if (!this.agent.systemPrompt) return history;
    return [{ id: 'system-prompt', role: 'system', content: this.agent.systemPrompt }, ...history];
  }
}

function addUsage(total: ModelUsage | undefined, call: ModelUsage): ModelUsage {
  return {
    promptTokens: (total?.promptTokens ?? 0) + call.promptTokens,
    completionTokens: (total?.completionTokens ?? 0) + call.completionTokens,
    totalTokens: (total?.totalTokens ?? 0) + call.totalTokens,
  };
}
