import type { RunnableConfig } from '@langchain/core/runnables';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { ToolTraits } from '../handle/run-handle.interface.js';

/**
 * The part of a compiled LangGraph graph (`StateGraph#compile()`, `createReactAgent`) the
 * adapter uses: its nodes, streaming, and its state.
 */
export interface CompiledGraph {
  nodes: Record<string, { bound?: unknown }>;
  stream(input: unknown, options?: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: RunnableConfig): Promise<{ next: readonly string[]; tasks: ReadonlyArray<{ name: string; interrupts: readonly unknown[] }> }>;
}

/** A `ToolNode` of the graph, as the adapter sees it. */
export interface ToolNodeLike {
  tools: StructuredToolInterface[];
}

/** What the module needs to know beside the graph. */
export interface LangGraphAgentOptions {
  /** Per tool name: `idempotent`, `requiresApproval`, `expectedDurationMs`. @default none */
  toolTraits?: Record<string, ToolTraits>;
  /** The state key of the conversation (a messages channel). @default 'messages' */
  messagesKey?: string;
  /** How long one model call is expected to take, in milliseconds (a drain does not start one that would outlast it). @default the module's `defaultStepDurationMs` */
  expectedReasoningMs?: number;
  /** Nodes whose chat-model calls are the agent's reasoning. @default every node but the tool nodes */
  reasoningNodes?: readonly string[];
  /** Extra config for every graph call (`recursionLimit`, `context`, callbacks, …); `configurable.thread_id` is the thread's. */
  config?: RunnableConfig & { recursionLimit?: number };
}
