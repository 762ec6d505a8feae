import type { RunnableConfig } from '@langchain/core/runnables';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { Command } from '@langchain/langgraph';
import { CallAbortedError } from '../agent/abortable.js';
import type { ToolCall } from '../agent/agent-message.js';
import type { AgentShape, ToolInputCheck, VersionChangePolicy } from '../agent/agent-release.js';
import type { DurableAgent, RunHandle, ToolTraits } from '../handle/run-handle.interface.js';
import { durableTool, invokeDirectly, RUN_HANDLE_KEY } from './durable-tools.js';
import { graphShape } from './graph-shape.js';
import { adaptSavedGraphState } from './graph-state-adaptation.js';
import { HandleCheckpointer } from './handle-checkpointer.js';
import type { CompiledGraph, LangGraphAgentOptions, ToolNodeLike } from './langgraph-types.js';
import { toLangChain } from './lc-messages.js';
import { ModelCallbacks } from './model-callbacks.js';
import { checkLangChainToolInput } from './tool-input-check.js';

/** How LangGraph lends a checkpointer to a graph through its config (as a parent graph does to a subgraph). */
const CHECKPOINTER_KEY = '__pregel_checkpointer';

/**
 * Runs a compiled LangGraph graph, unchanged, under the module. Its checkpointer is the
 * session (the messages channel as the conversation, O(new messages) per checkpoint; the rest
 * as the thread's framework state); each super-step boundary is a safe point where a shutdown
 * or a cancel stops the graph; each chat-model call of a node is a pre-reasoning safe point
 * streamed as AG-UI events; the tools of its `ToolNode`s go through the run's tool-call records.
 *
 * @example
 * const graph = createReactAgent({ llm: new ChatOpenAI({ model: 'gpt-4o-mini' }), tools: [search] });
 * const run = await runs.start(userId, input, langGraphAgent(graph, { toolTraits: { search: { idempotent: true } } }));
 */
export function langGraphAgent(
  graph: CompiledGraph,
  options: LangGraphAgentOptions = {},
): DurableAgent {
  return new LangGraphAgent(graph, options);
}

/** See `langGraphAgent`. */
export class LangGraphAgent implements DurableAgent {
  private readonly toolNodes = new Set<string>();
  private readonly tools: StructuredToolInterface[] = [];
  private readonly messagesKey: string;

  constructor(
    private readonly graph: CompiledGraph,
    private readonly options: LangGraphAgentOptions = {},
  ) {
    this.messagesKey = options.messagesKey ?? 'messages';
    for (const [name, node] of Object.entries(graph.nodes)) {
      if (!isToolNode(node.bound)) continue;
      // In place, once: outside a module run the tools behave as before.
      node.bound.tools = node.bound.tools.map(durableTool);
      this.toolNodes.add(name);
      this.tools.push(...node.bound.tools);
    }
  }

  /** The `version` option: the release label recorded with each run attempt. */
  get version(): string | undefined {
    return this.options.version;
  }

  /** The `onVersionChange` option: how a resume across a change of release goes on. */
  get onVersionChange(): VersionChangePolicy | undefined {
    return this.options.onVersionChange;
  }

  /** The graph's tools with their JSON Schemas, its node names and its state channels. */
  describe(): AgentShape {
    return graphShape(this.graph, this.tools);
  }

  /** LangChain's own input check of the call's tool (what `tool.invoke` would refuse). */
  checkToolInput(call: ToolCall): Promise<ToolInputCheck> {
    return checkLangChainToolInput(this.tools, call);
  }

  toolTraits(name: string): ToolTraits | undefined {
    const declared = this.options.toolTraits?.[name];
    if (declared) return declared;
    return this.tools.some((tool) => tool.name === name) ? {} : undefined;
  }

  async run(handle: RunHandle): Promise<void> {
    const saver = new HandleCheckpointer(handle, this.messagesKey, this.graph.streamChannelsList);
    const halt: Halt = { controller: new AbortController() };
    const config = this.configFor(handle, saver, halt);
    const stream = (input: unknown, extra: Record<string, unknown> = {}) =>
      this.drive(this.graph.stream(input, { ...config, ...extra }), handle, halt);
    try {
      // A checkpoint that does not fit the graph (another release saved it) is not resumed blindly.
      await adaptSavedGraphState(this.graph, handle, saver);
      const resumed = await saver.hasCheckpoint();
      const before = resumed ? await this.graph.getState(config) : undefined;
      const interrupted = before?.tasks.some((task) => task.interrupts.length > 0) ?? false;
      const cutToolStep =
        handle.pendingToolCalls.length > 0 && before?.next.some((node) => this.toolNodes.has(node));
      if (before?.next.length && (interrupted || cutToolStep)) {
        // The step a stop or an approval pause cut finishes inside the graph: its calls go through
        // the records, and an interrupt() gets the human's answer. The resume message comes after.
        await stream(interrupted ? new Command({ resume: approvalAnswer(handle) }) : null, {
          interruptAfter: [...before.next],
        });
      }
      await handle.prepare((call, signal) => invokeDirectly(this.tools, call, signal, handle));
      const next = resumed ? (await this.graph.getState(config)).next : [];
      const messages = resumed ? handle.prelude : handle.messages;
      await stream(next.length ? null : { [this.messagesKey]: messages.map(toLangChain) });
      await this.pauseOnInterrupt(handle, config);
    } finally {
      await saver.flush().catch(() => undefined);
    }
  }

  private configFor(
    handle: RunHandle,
    saver: HandleCheckpointer,
    halt: Halt,
  ): RunnableConfig & Record<string, unknown> {
    const extra = this.options.config ?? {};
    const reasoning = this.options.reasoningNodes
      ? new Set(this.options.reasoningNodes)
      : undefined;
    const callbacks = new ModelCallbacks(handle, {
      expectedReasoningMs: this.options.expectedReasoningMs,
      reasons: (node) =>
        reasoning ? node !== undefined && reasoning.has(node) : !node || !this.toolNodes.has(node),
      onStop: (cause) => {
        halt.cause ??= cause;
        halt.controller.abort(cause);
      },
    });
    const own = Array.isArray(extra.callbacks)
      ? extra.callbacks
      : extra.callbacks
        ? [extra.callbacks]
        : [];
    return {
      ...extra,
      configurable: {
        ...extra.configurable,
        thread_id: handle.threadId,
        [CHECKPOINTER_KEY]: saver,
        [RUN_HANDLE_KEY]: handle,
      },
      callbacks: [...(own as never[]), callbacks],
      // LangGraph starts no step once the signal aborted: a stop ends the graph at a boundary.
      signal: AbortSignal.any([handle.signal, halt.controller.signal]),
      // Every super-step is durable before the next starts: its boundary is a safe point.
      durability: 'sync',
    };
  }

  private async drive(
    started: Promise<AsyncIterable<unknown>>,
    handle: RunHandle,
    halt: Halt,
  ): Promise<void> {
    try {
      for await (const chunk of await started) void chunk;
    } catch (error) {
      // The graph ended with an abort the model callbacks caused: their reason is the run's.
      throw halt.cause ?? error;
    }
    if (handle.signal.aborted) throw new CallAbortedError();
  }

  /** The graph stopped at an interrupt(): the module's approval pause for the step's calls that need one. */
  private async pauseOnInterrupt(handle: RunHandle, config: RunnableConfig): Promise<void> {
    const state = await this.graph.getState(config);
    const nodes = state.tasks.filter((task) => task.interrupts.length > 0).map((task) => task.name);
    if (nodes.length === 0) return;
    const last = [...handle.messages].reverse().find((message) => message.role === 'assistant');
    const waiting = (last?.toolCalls ?? []).filter(
      (call) => !handle.toolResult(call.id) && this.toolTraits(call.name)?.requiresApproval,
    );
    if (waiting.length === 0) {
      throw new Error(
        `the graph called interrupt() in ${nodes.join(', ')} with no tool call waiting for approval; ` +
          'declare the tools it reviews with toolTraits { requiresApproval: true }',
      );
    }
    const point = await handle.beforeActing(waiting[0]);
    if (point.stop) throw handle.stopped(point);
  }
}

/** Aborts a run's graph from inside it (a stop decided, or a failure, at a model call), keeping why. */
interface Halt {
  controller: AbortController;
  cause?: Error;
}

/** What an interrupt() of an approval pause returns: whether the human approved the step's calls, and which. */
function approvalAnswer(handle: RunHandle): { approved: boolean; approvedToolCallIds: string[] } {
  const approvedToolCallIds = handle.pendingToolCalls.map((call) => call.id);
  return { approved: approvedToolCallIds.length > 0, approvedToolCallIds };
}

function isToolNode(bound: unknown): bound is ToolNodeLike {
  return (
    typeof bound === 'object' &&
    bound !== null &&
    (bound.constructor as { name?: string }).name === 'ToolNode' &&
    Array.isArray((bound as ToolNodeLike).tools)
  );
}
