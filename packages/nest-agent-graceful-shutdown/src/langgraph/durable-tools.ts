import { isBaseMessage, ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { GraphDrained } from '@langchain/langgraph';
import type { ToolCall } from '../agent/agent-message.js';
import type { RunHandle } from '../handle/run-handle.interface.js';
import { parseToolArguments, toolOutputText, unknownToolResult } from '../handle/tool-call-text.js';
import { TOOL_FENCE_KEY } from '../handle/tool-fence-carrier.js';
import { toolFenceOf, type ToolFence } from '../agent/tool-fence.js';
import { textOf } from './lc-messages.js';

/** The config key under which a run's graph config carries its handle to the tools. */
export const RUN_HANDLE_KEY = '__nest_agent_run_handle';
const DURABLE = Symbol.for('nest-agent-graceful-shutdown.durable-tool');

type AnyTool = StructuredToolInterface & { [DURABLE]?: true };
interface LcToolCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
  type?: string;
}

/**
 * The tool, run through the records of the run whose graph config calls it: a finished call
 * returns its stored result without running, a call that may have run is not run twice, and
 * any other passes the pre-acting safe point first. Outside a module run it is the tool itself.
 * The result comes back as a tool message under the stored id, so the checkpoint knows it.
 */
export function durableTool(tool: StructuredToolInterface): StructuredToolInterface {
  if ((tool as AnyTool)[DURABLE]) return tool;
  const durable = Object.create(tool) as AnyTool;
  durable[DURABLE] = true;
  durable.invoke = async (input: unknown, config?: RunnableConfig) => {
    const handle = handleOf(config);
    if (!handle || !isToolCall(input)) return tool.invoke(input as never, config);
    const call: ToolCall = {
      id: input.id ?? '',
      name: tool.name,
      arguments: JSON.stringify(input.args ?? {}),
    };
    try {
      const fenced = fencedConfig(
        config,
        toolFenceOf(handle.threadId, call.id, handle.fencingToken),
      );
      const result = await handle.runTool(call, async (signal) =>
        textOfOutput(await tool.invoke(input as never, { ...fenced, signal })),
      );
      return new ToolMessage({
        id: result.messageId,
        content: result.content,
        tool_call_id: call.id,
        name: tool.name,
      });
    } catch (error) {
      // A tool that failed has its failure stored as its result: the graph gets that one.
      const stored = handle.toolResult(call.id);
      if (stored)
        return new ToolMessage({
          id: stored.id,
          content: stored.content,
          tool_call_id: call.id,
          name: tool.name,
          status: 'error',
        });
      // A stop: past the ToolNode's error handling, which would turn it into a result.
      throw stopOf(error);
    }
  };
  return durable;
}

/** Runs a call of an interrupted or approved step with the tool itself, outside a graph step. */
export async function invokeDirectly(
  tools: readonly StructuredToolInterface[],
  call: ToolCall,
  signal: AbortSignal,
  handle: RunHandle,
): Promise<string> {
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (!tool) return unknownToolResult(call.name);
  const args = parseToolArguments(call);
  const config = fencedConfig(
    { configurable: { thread_id: handle.threadId } },
    toolFenceOf(handle.threadId, call.id, handle.fencingToken),
  );
  return textOfOutput(
    await tool.invoke({ id: call.id, name: call.name, args, type: 'tool_call' } as never, {
      ...config,
      signal,
    }),
  );
}

/** The config a tool runs with: `config`, with the call's fence in its `configurable` (read it with `toolFence(config)`). */
function fencedConfig(config: RunnableConfig | undefined, fence: ToolFence): RunnableConfig {
  return { ...config, configurable: { ...config?.configurable, [TOOL_FENCE_KEY]: fence } };
}

/** The module run a graph call belongs to, read from the config a node or tool gets; undefined outside one. */
export function runOf(
  config: RunnableConfig | undefined,
): { threadId: string; runId: string } | undefined {
  const handle = handleOf(config);
  return handle ? { threadId: handle.threadId, runId: handle.runId } : undefined;
}

function handleOf(config: RunnableConfig | undefined): RunHandle | undefined {
  const configurable =
    config?.configurable ??
    (config as { config?: RunnableConfig } | undefined)?.config?.configurable;
  return configurable?.[RUN_HANDLE_KEY] as RunHandle | undefined;
}

function isToolCall(input: unknown): input is LcToolCall {
  return typeof input === 'object' && input !== null && (input as LcToolCall).type === 'tool_call';
}

function textOfOutput(output: unknown): string {
  return isBaseMessage(output) ? textOf(output.content) : toolOutputText(output);
}

function stopOf(error: unknown): Error {
  const stop = new GraphDrained(error instanceof Error ? error.message : String(error));
  (stop as Error & { cause?: unknown }).cause = error;
  return stop;
}
