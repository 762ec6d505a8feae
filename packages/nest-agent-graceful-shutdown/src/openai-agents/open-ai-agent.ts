import { Runner, type Model, type RunState, type StreamedRunResult } from '@openai/agents';
import { CallAbortedError } from '../agent/abortable.js';
import { toolFenceOf } from '../agent/tool-fence.js';
import type { ToolCall } from '../agent/agent-message.js';
import type { AgentShape, ToolInputCheck, VersionChangePolicy } from '../agent/agent-release.js';
import type { DurableAgent, RunHandle, ToolTraits } from '../handle/run-handle.interface.js';
import { unknownToolResult } from '../handle/tool-call-text.js';
import { DurableModel, type StopMarks } from './durable-model.js';
import { durableTool, runToolDirectly } from './durable-tool.js';
import type { DurableRunContext, OpenAiAgentOptions } from './open-ai-agent-options.interface.js';
import { runStart } from './run-start.js';
import { callIdOf, savedRunState } from './saved-run-state.js';
import type { SdkAgent } from './sdk-types.js';
import { checkOpenAiToolInput, openAiAgentShape } from './tool-input-check.js';
import { functionTools, ToolTraitsTable } from './tool-traits-table.js';

type AnyAgent<TContext> = SdkAgent<TContext>;

/**
 * Runs an OpenAI Agents SDK `Agent`, unchanged, under the module: every model call passes the
 * pre-reasoning safe point and streams its text as AG-UI events, every function tool call goes
 * through the run's tool-call records (pre-acting safe point, never run twice), the SDK's
 * `RunState` is kept with the thread when a run stops or pauses, and `needsApproval` pauses
 * become the module's approval pauses.
 *
 * @example
 * const agent = new Agent({ name: 'assistant', instructions: '…', tools: [search], model });
 * const run = await runs.start(userId, input, openAiAgent(agent, { toolTraits: { search: { idempotent: true } } }));
 */
export function openAiAgent<TContext = DurableRunContext>(
  agent: AnyAgent<TContext>,
  options: OpenAiAgentOptions<TContext> = {},
): DurableAgent {
  return new OpenAiAgentsAdapter(agent, options);
}

/** See `openAiAgent`. */
export class OpenAiAgentsAdapter<TContext = DurableRunContext> implements DurableAgent {
  private readonly runner: Runner;
  private readonly traits: ToolTraitsTable;

  constructor(
    private readonly agent: AnyAgent<TContext>,
    private readonly options: OpenAiAgentOptions<TContext> = {},
  ) {
    this.runner = options.runner ?? new Runner();
    this.traits = new ToolTraitsTable(agent.tools, options.toolTraits);
  }

  /** The agent's release label (`OpenAiAgentOptions.version`). */
  get version(): string | undefined {
    return this.options.version;
  }

  /** How a resume across a change goes on (`OpenAiAgentOptions.onVersionChange`). */
  get onVersionChange(): VersionChangePolicy | undefined {
    return this.options.onVersionChange;
  }

  toolTraits(name: string): ToolTraits | undefined {
    return this.traits.of(name);
  }

  /** The function tools and their `parameters` JSON Schemas, as the SDK gives them to the model. */
  describe(): AgentShape {
    return openAiAgentShape(functionTools(this.agent.tools));
  }

  /** The SDK's own parse of a call's arguments (what `invoke` runs before `execute`), with its message. */
  checkToolInput(call: ToolCall): Promise<ToolInputCheck> {
    return checkOpenAiToolInput(functionTools(this.agent.tools), call);
  }

  async run(handle: RunHandle): Promise<void> {
    await this.traits.ready;
    const context = this.contextOf(handle);
    const stored = [...handle.messages];
    await handle.prepare((call, signal) => this.runPending(call, context, signal, handle));
    const marks: StopMarks = { beforeReasoning: false };
    const durable = (agent: AnyAgent<TContext>) => this.durableCopy(agent, handle, marks);
    const start = await runStart(handle, stored, await durable(this.agent), durable, context);
    const result = await this.runner.run(start.agent, start.input, {
      stream: true,
      signal: handle.signal,
      context,
      ...(this.options.maxTurns !== undefined ? { maxTurns: this.options.maxTurns } : {}),
    });
    try {
      await drain(result);
    } catch (error) {
      await this.keepState(handle, marks.beforeReasoning ? result.state : null);
      throw error;
    }
    // The SDK ends a streamed run quietly when its signal aborts mid-call.
    if (handle.signal.aborted) {
      await this.keepState(handle, null);
      throw new CallAbortedError();
    }
    if (result.interruptions.length > 0) return this.pauseForApproval(handle, result.state);
    if (handle.savedState != null) await handle.saveState(null);
  }

  /** The SDK paused for `needsApproval`: the module's approval pause, with the SDK's state kept for the answer. */
  private async pauseForApproval(
    handle: RunHandle,
    state: RunState<TContext, AnyAgent<TContext>>,
  ): Promise<void> {
    const calls: ToolCall[] = state.getInterruptions().map((item) => {
      const raw = item.rawItem as { type: string; name?: string; arguments?: string };
      return {
        id: callIdOf(raw),
        name: raw.name ?? item.toolName ?? raw.type,
        arguments: raw.arguments ?? '{}',
      };
    });
    for (const call of calls) {
      const point = await handle.beforeActing(call);
      if (!point.stop) continue;
      await this.keepState(handle, state);
      throw handle.stopped(point);
    }
    throw new Error(
      `the agent asked for approval of ${calls.map((c) => c.name).join(', ')} but no such tool requires approval: ` +
        'declare `requiresApproval: true` in the toolTraits of openAiAgent(...) for a needsApproval that depends on its arguments',
    );
  }

  /** Keeps the SDK's state with the thread, or clears one left by an earlier run that no longer applies. */
  private async keepState(
    handle: RunHandle,
    state: RunState<TContext, AnyAgent<TContext>> | null,
  ): Promise<void> {
    const saved = state ? savedRunState(state) : null;
    if (saved === null && handle.savedState == null) return;
    try {
      await handle.saveState(saved);
    } catch {
      // The run is ending with its own error; a stale state is never used (see `usableRunState`).
    }
  }

  /** The agent as one run drives it: its model and function tools wrapped, everything else its own. */
  private async durableCopy(
    agent: AnyAgent<TContext>,
    handle: RunHandle,
    marks: StopMarks,
  ): Promise<AnyAgent<TContext>> {
    const model = new DurableModel(
      await this.modelOf(agent),
      handle,
      marks,
      this.options.expectedReasoningMs,
    );
    const tools = agent.tools.map((tool) =>
      tool.type === 'function' ? durableTool(tool, handle) : tool,
    );
    return agent.clone({ model, tools });
  }

  /** The model the runner would pick for `agent` (its own, else the runner's, through the runner's provider). */
  private async modelOf(agent: AnyAgent<TContext>): Promise<Model> {
    const chosen = agent.model || this.runner.config.model || agent.model;
    return typeof chosen === 'string' ? this.runner.config.modelProvider.getModel(chosen) : chosen;
  }

  /** A call of the interrupted or approved step, run before the first turn. */
  private runPending(
    call: ToolCall,
    context: TContext,
    signal: AbortSignal,
    handle: RunHandle,
  ): Promise<string> {
    const tool = functionTools(this.agent.tools).find((candidate) => candidate.name === call.name);
    if (!tool) return Promise.resolve(unknownToolResult(call.name));
    return runToolDirectly(
      tool,
      call,
      context,
      signal,
      toolFenceOf(handle.threadId, call.id, handle.fencingToken),
    );
  }

  private contextOf(handle: RunHandle): TContext {
    const ids = { threadId: handle.threadId, runId: handle.runId };
    return this.options.context ? this.options.context(ids) : (ids as TContext);
  }
}

/** Reads a streamed run to its end (AG-UI events come from the model wrapper), surfacing its error. */
async function drain<TContext>(
  result: StreamedRunResult<TContext, SdkAgent<TContext>>,
): Promise<void> {
  for await (const event of result) void event;
  await result.completed;
}
