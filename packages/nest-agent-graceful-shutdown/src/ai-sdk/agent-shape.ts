import { asSchema, type ToolSet } from 'ai';
import type { AgentShape } from '../agent/agent-release.js';

/**
 * The shape of an AI SDK agent: each tool's name and its input schema as the SDK gives it to the
 * model (`asSchema(tool.inputSchema).jsonSchema`: zod, standard and JSON schemas alike), so the
 * same code gives the same shape in every process. A schema whose JSON Schema only a promise
 * gives (a `jsonSchema(promise)`) cannot be read synchronously and counts by name only.
 */
export function aiSdkAgentShape(tools: ToolSet): AgentShape {
  return {
    tools: Object.entries(tools).map(([name, tool]) => {
      const schema: unknown = asSchema(tool.inputSchema).jsonSchema;
      return { name, inputSchema: isThenable(schema) ? null : schema };
    }),
  };
}

function isThenable(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
