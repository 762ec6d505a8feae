import { ToolInputParsingException, type StructuredToolInterface } from '@langchain/core/tools';
import { Validator } from '@langchain/core/utils/json_schema';
import { interopSafeParseAsync, isInteropZodSchema } from '@langchain/core/utils/types';
import type { ToolCall } from '../agent/agent-message.js';
import type { ToolInputCheck } from '../agent/agent-release.js';
import { parseToolArguments } from '../handle/tool-call-text.js';

/**
 * Checks a call's arguments the way LangChain's `StructuredTool.call` does before it runs the
 * tool: a zod schema parses them (`interopSafeParseAsync`), a JSON schema validates them (the
 * `Validator` LangChain uses); a refusal is LangChain's `ToolInputParsingException` message with
 * its details. An unknown tool passes (the caller knows it is unknown).
 */
export async function checkLangChainToolInput(
  tools: readonly StructuredToolInterface[],
  call: ToolCall,
): Promise<ToolInputCheck> {
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (!tool) return { ok: true };
  let args: unknown;
  try {
    args = parseToolArguments(call);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const details = await refusal(tool.schema, args);
  if (details === undefined) return { ok: true };
  const message = `Received tool input did not match expected schema\nDetails: ${details}`;
  return { ok: false, error: new ToolInputParsingException(message, JSON.stringify(args)).message };
}

/** Why the schema refuses `args`; undefined when it takes them. */
async function refusal(schema: unknown, args: unknown): Promise<string | undefined> {
  if (isInteropZodSchema(schema)) {
    const result = await interopSafeParseAsync(schema, args);
    if (result.success) return undefined;
    const issues = result.error.issues.map(
      (issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`,
    );
    return issues.join('\n');
  }
  const result = new Validator(schema as ConstructorParameters<typeof Validator>[0]).validate(args);
  if (result.valid) return undefined;
  return result.errors.map((e) => `${e.keywordLocation}: ${e.error}`).join('\n');
}
