import type { LanguageModelMiddleware, ToolSet } from 'ai';
import type { AgentMessage } from '../agent/agent-message.js';
import type { RunHandle } from '../handle/run-handle.interface.js';
import { unknownToolResult } from '../handle/tool-call-text.js';
import { installedAi } from './installed-ai.js';
import { checkSdkToolInput, refusedInputResult } from './tool-input-check.js';

/**
 * Answers, in the run's records, the calls of the latest model answer that the SDK refused
 * without running them: a call of a tool it does not have, or whose input the tool's schema
 * refuses (the SDK tells the model with a tool error and never calls `execute`). The stored
 * conversation then has the same answer the model saw, and a resume does not take the call for
 * one still to run. A call of a tool without `execute` is the client's and stays open.
 */
export async function answerRefusedCalls(tools: ToolSet, handle: RunHandle): Promise<void> {
  for (const call of latestAnswer(handle.messages)?.toolCalls ?? []) {
    if (handle.toolResult(call.id)) continue;
    const tool = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
    if (!tool) {
      await handle.toolFinished(call, unknownToolResult(call.name));
      continue;
    }
    if (!tool.execute) continue;
    const check = await checkSdkToolInput(tools, call);
    if (!check.ok) await handle.toolFinished(call, refusedInputResult(check.error));
  }
}

/**
 * A language-model middleware, outside the durable one, that answers the refused calls of the
 * previous step before the next model call (by then the SDK has run every call it accepted).
 */
export function refusedCallsMiddleware(tools: ToolSet, handle: RunHandle): LanguageModelMiddleware {
  return {
    specificationVersion: installedAi()
      .middlewareSpec as LanguageModelMiddleware['specificationVersion'],
    async wrapGenerate({ doGenerate }) {
      await answerRefusedCalls(tools, handle);
      return doGenerate();
    },
    async wrapStream({ doStream }) {
      await answerRefusedCalls(tools, handle);
      return doStream();
    },
  };
}

function latestAnswer(messages: readonly AgentMessage[]): AgentMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'assistant') return messages[i];
    if (messages[i].role !== 'tool') return undefined;
  }
  return undefined;
}
