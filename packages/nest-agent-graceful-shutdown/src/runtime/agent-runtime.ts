import { abortable } from '../agent/abortable.js';
import type { AgentDefinition } from '../agent/agent-definition.js';
import type { AgentShape, ToolInputCheck, VersionChangePolicy } from '../agent/agent-release.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { ModelResponse } from '../agent/agent-model.interface.js';
import { runBounded } from './bounded-parallel.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import { StopReason } from '../agent/stop-reason.js';
import { ToolExecutor } from './tool-executor.js';
import { toolFenceOf } from '../agent/tool-fence.js';
import { driveRun } from '../handle/drive-run.js';
import { DurableRunHandle } from '../handle/durable-run-handle.js';
import type { DurableAgent, RunHandle, ToolTraits } from '../handle/run-handle.interface.js';
import type { AgentRunEnvironment, AgentRunInput } from '../handle/run-handle.types.js';

export type {
  AgentRunEnvironment,
  AgentRunInput,
  PartialOutputPolicy,
} from '../handle/run-handle.types.js';

const DEFAULT_MAX_ITERATIONS = 25;
const DEFAULT_MAX_PARALLEL_TOOL_CALLS = 4;

/**
 * The module's own ReAct loop, one client of the run handle like any framework adapter:
 * reasoning (one model call), then acting (the tool calls it asked for), until the model
 * answers without tools or the iteration limit is hit. The calls of one step run one by one,
 * or up to `maxParallelToolCalls` at once when every tool of the step is `parallelSafe`.
 */
export class AgentRuntime implements DurableAgent {
  private readonly tools: ToolExecutor;
  private readonly maxIterations: number;
  private readonly maxParallel: number;

  constructor(private readonly agent: AgentDefinition) {
    this.tools = new ToolExecutor(agent.tools);
    this.maxIterations = agent.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    this.maxParallel = agent.maxParallelToolCalls ?? DEFAULT_MAX_PARALLEL_TOOL_CALLS;
  }

  get version(): string | undefined {
    return this.agent.version;
  }

  get onVersionChange(): VersionChangePolicy | undefined {
    return this.agent.onVersionChange;
  }

  toolTraits(name: string): ToolTraits | undefined {
    return this.tools.traits(name);
  }

  describe(): AgentShape {
    return {
      tools: this.tools.definitions.map((tool) => ({
        name: tool.name,
        inputSchema: tool.parameters,
      })),
    };
  }

  checkToolInput(call: ToolCall): Promise<ToolInputCheck> {
    return Promise.resolve(this.tools.checkInput(call));
  }

  /** Runs one run outside the module (tests, scripts): the handle is built from `input` and `env`. */
  execute(input: AgentRunInput, env: AgentRunEnvironment): Promise<RunOutcome> {
    const handle = new DurableRunHandle({
      ...input,
      ...env,
      toolTraits: (name) => this.toolTraits(name),
    });
    return driveRun(this, handle);
  }

  async run(handle: RunHandle): Promise<void> {
    const execute = (call: ToolCall, signal: AbortSignal) =>
      this.tools.execute(call, {
        threadId: handle.threadId,
        runId: handle.runId,
        toolCallId: call.id,
        ...toolFenceOf(handle.threadId, call.id, handle.fencingToken),
        signal,
      });
    await handle.prepare(execute);
    for (;;) {
      if (handle.iteration >= this.maxIterations) {
        throw handle.stopped({
          stop: true,
          reason: StopReason.StepLimit,
          detail: `reached ${this.maxIterations} iterations`,
        });
      }
      const point = await handle.beforeReasoning({
        expectedDurationMs: this.agent.model.expectedDurationMs,
      });
      if (point.stop) throw handle.stopped(point);
      const answer = handle.startAnswer();
      let response: ModelResponse;
      try {
        response = await abortable(
          this.agent.model.generate(
            { messages: this.withSystemPrompt(handle.messages), tools: this.tools.definitions },
            {
              threadId: handle.threadId,
              runId: handle.runId,
              signal: handle.signal,
              stream: answer,
            },
          ),
          handle.signal,
        );
      } catch (error) {
        await answer.cutOff();
        throw error;
      }
      if (response.usage) handle.reportUsage(response.usage);
      const message = await answer.complete(response);
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return;
      await this.act(handle, calls, execute);
    }
  }

  private async act(
    handle: RunHandle,
    calls: readonly ToolCall[],
    execute: (call: ToolCall, signal: AbortSignal) => Promise<string>,
  ): Promise<void> {
    const parallel =
      calls.length > 1 &&
      this.maxParallel > 1 &&
      calls.every((call) => this.tools.traits(call.name)?.parallelSafe);
    await runBounded(calls, parallel ? this.maxParallel : 1, (call) =>
      handle.runTool(call, (signal) => execute(call, signal)),
    );
  }

  private withSystemPrompt(history: readonly AgentMessage[]): readonly AgentMessage[] {
    if (!this.agent.systemPrompt) return history;
    return [{ id: 'system-prompt', role: 'system', content: this.agent.systemPrompt }, ...history];
  }
}
