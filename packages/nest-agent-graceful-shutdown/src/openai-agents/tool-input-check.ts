import type { ToolCall } from '../agent/agent-message.js';
import type { AgentShape, ToolInputCheck } from '../agent/agent-release.js';
import { sdkInputParser } from './sdk-input-parser.js';
import type { SdkFunctionTool } from './sdk-types.js';

/** The shape of an SDK agent: each function tool's name and its `parameters` JSON Schema (what the model gets). */
export function openAiAgentShape(tools: readonly SdkFunctionTool[]): AgentShape {
  return { tools: tools.map((tool) => ({ name: tool.name, inputSchema: tool.parameters })) };
}

/**
 * Checks a call's arguments with the parser the SDK's `invoke` runs before `execute` (zod or
 * standard schema parameters, or JSON for a JSON Schema tool), with the SDK's message
 * ("Invalid JSON input for tool"). A call of a tool the SDK has no parser for (one not made by
 * `tool()`) passes: its `invoke` alone knows its input.
 */
export async function checkOpenAiToolInput(
  tools: readonly SdkFunctionTool[],
  call: ToolCall,
): Promise<ToolInputCheck> {
  const tool = tools.find((candidate) => candidate.name === call.name);
  const prepare = tool && (await sdkInputParser());
  if (!tool || !prepare) return { ok: true };
  let result;
  try {
    result = prepare(tool, call.arguments)?.result;
  } catch (error) {
    return { ok: false, error: `Invalid JSON input for tool: ${messageOf(error)}` };
  }
  if (!result || result.success) return { ok: true };
  return { ok: false, error: `Invalid JSON input for tool: ${messageOf(result.error)}` };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
