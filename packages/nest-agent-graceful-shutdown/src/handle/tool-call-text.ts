import type { ToolCall } from '../agent/agent-message.js';

/** The result stored for a call of a tool the agent does not have. */
export function unknownToolResult(name: string): string {
  return `error: unknown tool "${name}"`;
}

/** A call's arguments as a tool gets them: `{}` for none; throws, naming the tool, when they are not JSON. */
export function parseToolArguments(call: ToolCall): unknown {
  if (call.arguments.trim() === '') return {};
  try {
    return JSON.parse(call.arguments);
  } catch {
    throw new Error(`the arguments of "${call.name}" are not valid JSON`);
  }
}

/** A tool's output as the text stored as its result: a string as it is, anything else as JSON. */
export function toolOutputText(output: unknown): string {
  return typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
}
