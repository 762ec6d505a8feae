import {
  RunContext,
  ToolTimeoutError,
  invokeFunctionTool,
  type FunctionTool,
} from '@openai/agents';
import type { ToolCall } from '../agent/agent-message.js';
import type { RunHandle } from '../handle/run-handle.interface.js';
import { toolOutputText } from '../handle/tool-call-text.js';
import { withToolFence } from '../handle/tool-fence-carrier.js';
import { toolFenceOf, type ToolFence } from '../agent/tool-fence.js';

type InvokeDetails = Parameters<FunctionTool['invoke']>[2];

/**
 * The user's function tool as one run sees it: every invocation goes through the run's
 * tool-call record (`handle.runTool`), so a finished call is never run again, a call that may
 * have run is answered as of unknown outcome unless the tool is idempotent, and the
 * pre-acting safe point is passed before the tool starts.
 */
export function durableTool<TContext>(
  tool: FunctionTool<TContext>,
  handle: RunHandle,
): FunctionTool<TContext> {
  return {
    ...tool,
    invoke: async (runContext, input, details) => {
      const call: ToolCall = {
        id: details?.toolCall?.callId ?? '',
        name: tool.name,
        arguments: input,
      };
      const fence = toolFenceOf(handle.threadId, call.id, handle.fencingToken);
      const result = await handle.runTool(call, (signal) =>
        invokeOnce(tool, runContext, input, details, signal, fence),
      );
      return result.content;
    },
  };
}

/**
 * Runs a call of the user's tool outside the SDK's runner (the calls `handle.prepare` resolves
 * before the first turn), with the SDK's own timeout handling; its details carry the call's `fence`.
 */
export async function runToolDirectly<TContext>(
  tool: FunctionTool<TContext>,
  call: ToolCall,
  context: TContext,
  signal: AbortSignal,
  fence: ToolFence,
): Promise<string> {
  const toolCall = {
    type: 'function_call',
    callId: call.id,
    name: call.name,
    arguments: call.arguments,
    status: 'completed',
  } as const;
  const output: unknown = await invokeFunctionTool({
    tool,
    runContext: new RunContext(context),
    input: call.arguments,
    details: withToolFence({ toolCall, signal }, fence),
  });
  return toolOutputText(output);
}

async function invokeOnce<TContext>(
  tool: FunctionTool<TContext>,
  runContext: RunContext<TContext>,
  input: string,
  details: InvokeDetails,
  runSignal: AbortSignal,
  fence: ToolFence,
): Promise<string> {
  const { signal, release } = shieldedSignal(runSignal, details?.signal);
  try {
    return toolOutputText(
      await tool.invoke(
        runContext,
        input,
        withToolFence({ ...details, signal }, fence) as InvokeDetails,
      ),
    );
  } finally {
    release();
  }
}

/**
 * The signal a tool runs with: the run's own (stop now) and the tool's timeout, but not the
 * SDK's sibling cancellation. When another call of the step stops the run at its safe point,
 * a call already running finishes and is recorded, instead of ending as "outcome unknown".
 */
function shieldedSignal(
  runSignal: AbortSignal,
  sdkSignal: AbortSignal | undefined,
): { signal: AbortSignal; release: () => void } {
  if (!sdkSignal) return { signal: runSignal, release: () => undefined };
  const controller = new AbortController();
  const onRun = () => controller.abort(runSignal.reason);
  const onSdk = () => {
    if (sdkSignal.reason instanceof ToolTimeoutError) controller.abort(sdkSignal.reason);
  };
  if (runSignal.aborted) onRun();
  else if (sdkSignal.aborted) onSdk();
  runSignal.addEventListener('abort', onRun, { once: true });
  sdkSignal.addEventListener('abort', onSdk, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      runSignal.removeEventListener('abort', onRun);
      sdkSignal.removeEventListener('abort', onSdk);
    },
  };
}
