import {
  asSchema,
  InvalidToolInputError,
  JSONParseError,
  TypeValidationError,
  type ToolSet,
} from 'ai';
import type { ToolCall } from '../agent/agent-message.js';

/** The SDK's answer to a call's input: the value its `execute` gets, or the error the model sees. */
export type SdkToolInput =
  { ok: true; input: unknown } | { ok: false; error: InvalidToolInputError };

/**
 * Checks a call's input as the SDK checks a model's tool call before it runs the tool (its
 * `parseToolCall`): empty arguments are `{}`, other arguments must be JSON, and the value must
 * pass the tool's own schema (`asSchema(tool.inputSchema).validate`, zod or JSON Schema with a
 * validator), whose output is what `execute` gets. A refusal is the SDK's `InvalidToolInputError`.
 * A call of a tool the set does not have passes: the caller knows the tool is unknown.
 */
export async function checkSdkToolInput(tools: ToolSet, call: ToolCall): Promise<SdkToolInput> {
  const tool = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
  const refuse = (cause: unknown): SdkToolInput => ({
    ok: false,
    error: new InvalidToolInputError({ toolName: call.name, toolInput: call.arguments, cause }),
  });
  let value: unknown = {};
  if (call.arguments.trim() !== '') {
    try {
      value = JSON.parse(call.arguments);
    } catch (cause) {
      return refuse(new JSONParseError({ text: call.arguments, cause }));
    }
  }
  if (!tool) return { ok: true, input: value };
  const schema = asSchema(tool.inputSchema);
  if (!schema.validate) return { ok: true, input: value };
  try {
    const result = await schema.validate(value);
    return result.success
      ? { ok: true, input: result.value }
      : refuse(TypeValidationError.wrap({ value, cause: result.error }));
  } catch (cause) {
    return refuse(TypeValidationError.wrap({ value, cause }));
  }
}

/** The result stored for a call the SDK refuses, as the model sees the SDK's own error. */
export function refusedInputResult(error: InvalidToolInputError): string {
  return `error: ${error.message}`;
}
