import type { RunnableConfig } from '@langchain/core/runnables';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { VersionChangePolicy } from '../agent/agent-release.js';
import type { ToolTraits } from '../handle/run-handle.interface.js';

/**
 * The part of a compiled LangGraph graph (`StateGraph#compile()`, `createReactAgent`) the
 * adapter uses: its nodes (with the channels each reads), its channels, streaming, and its state.
 */
export interface CompiledGraph {
  nodes: Record<
    string,
    { bound?: unknown; channels?: string | readonly string[] | Record<string, string> }
  >;
  /** Every channel, LangGraph's own (`__start__`, `branch:to:…`) included. */
  channels: Record<string, unknown>;
  /** The state channels (a StateGraph's: the keys of its state). */
  readonly streamChannelsList: readonly string[];
  stream(input: unknown, options?: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: RunnableConfig): Promise<{
    next: readonly string[];
    tasks: ReadonlyArray<{ name: string; interrupts: readonly unknown[] }>;
  }>;
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
  /**
   * The agent's release label, recorded with every run attempt.
   * @default the module's `runs.agentVersion`
   */
  version?: string;
  /**
   * How a resume across a change of version or fingerprint goes on; a function may return
   * `{ state }`: channel values the saved checkpoint gets (or a whole saved graph state).
   * @default the module's `runs.onVersionChange` ('adapt')
   */
  onVersionChange?: VersionChangePolicy;
  /** Extra config for every graph call (`recursionLimit`, `context`, callbacks, …); `configurable.thread_id` is the thread's. */
  config?: RunnableConfig & { recursionLimit?: number };
}
