import type { Tool, ToolSet } from 'ai';
import type { ToolCall } from '../agent/agent-message.js';
import type { RunHandle } from '../handle/run-handle.interface.js';
import { toolOutputText, unknownToolResult } from '../handle/tool-call-text.js';
import { withToolFence } from '../handle/tool-fence-carrier.js';
import { toolFenceOf } from '../agent/tool-fence.js';
import { checkSdkToolInput, refusedInputResult } from './tool-input-check.js';

type Execute = NonNullable<Tool['execute']>;
type ExecuteOptions = Parameters<Execute>[1];

/**
 * The tools of one run: each `execute` goes through the run's tool-call records (pre-acting safe
 * point, `started` made durable, result checkpointed; a finished call never runs again). The SDK's
 * own `needsApproval` is left to the module: a tool that needs approval pauses the run before it.
 */
export function durableTools(tools: ToolSet, handle: RunHandle): ToolSet {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const execute = tool.execute;
      if (!execute) return [name, tool];
      const { needsApproval: _sdkApproval, ...rest } = tool as Tool & { needsApproval?: unknown };
      const wrapped: Execute = async (input, options) => {
        let output: unknown;
        const call: ToolCall = {
          id: options.toolCallId,
          name,
          arguments: JSON.stringify(input ?? {}),
        };
        const result = await handle.runTool(call, async (signal) => {
          const fence = toolFenceOf(handle.threadId, call.id, handle.fencingToken);
          output = await settle(
            execute(input, withToolFence({ ...options, abortSignal: signal }, fence)),
          );
          return toolOutputText(output);
        });
        // The model gets what the tool returned now, or the stored text of a call that ran before.
        return result.source === 'executed' ? output : result.content;
      };
      return [name, { ...rest, execute: wrapped } as Tool];
    }),
  );
}

/**
 * Runs a call of an interrupted or approved step with the tool's own `execute`, outside a model
 * step, after the SDK's own input check (as in a model step: a call whose input the tool's
 * schema refuses does not run, and is answered with the SDK's error). `context` is the tool's
 * context option as the installed `ai` names it (see `toolContexts`); the call's fence comes
 * from `handle`.
 */
export async function executeDirectly(
  tools: ToolSet,
  call: ToolCall,
  signal: AbortSignal,
  context: Record<string, unknown>,
  handle: RunHandle,
): Promise<string> {
  const execute = Object.hasOwn(tools, call.name) ? tools[call.name].execute : undefined;
  if (!execute) return unknownToolResult(call.name);
  const check = await checkSdkToolInput(tools, call);
  if (!check.ok) return refusedInputResult(check.error);
  const fence = toolFenceOf(handle.threadId, call.id, handle.fencingToken);
  // The context key differs between the majors, so these options are one major's, cast.
  const options = withToolFence(
    { toolCallId: call.id, messages: [], abortSignal: signal, ...context },
    fence,
  ) as unknown as ExecuteOptions;
  return toolOutputText(await settle(execute(check.input, options)));
}

/** A tool that streams its output (an async iterable) settles with its last value. */
async function settle(output: unknown): Promise<unknown> {
  const value: unknown = await output;
  if (value === null || typeof value !== 'object' || !(Symbol.asyncIterator in value)) return value;
  let last: unknown;
  for await (const chunk of value as AsyncIterable<unknown>) last = chunk;
  return last;
}
