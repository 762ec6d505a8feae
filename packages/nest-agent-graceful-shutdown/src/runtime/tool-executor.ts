import { CallAbortedError } from '../agent/abortable.js';
import type { ToolCall } from '../agent/agent-message.js';
import type { AgentTool, ToolCallContext, ToolDefinition } from '../agent/agent-tool.interface.js';
import type { ToolTraits } from '../handle/run-handle.interface.js';
import { parseToolArguments, unknownToolResult } from '../handle/tool-call-text.js';
import type { ToolInputCheck } from '../agent/agent-release.js';
import { ToolInputSchemas } from './tool-input-schemas.js';

/**
 * Runs tool calls by name. A tool's own failure (arguments its JSON Schema refuses, unknown tool, a throw) is
 * reported to the model as the call's result so it can correct itself; only an abort
 * escapes, because it means the run is stopping.
 */
export class ToolExecutor {
  private readonly byName: ReadonlyMap<string, AgentTool>;
  private readonly schemas: ToolInputSchemas;
  readonly definitions: readonly ToolDefinition[];

  constructor(tools: readonly AgentTool[]) {
    this.byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
    this.definitions = tools.map((tool) => tool.definition);
    this.schemas = new ToolInputSchemas(this.byName);
  }

  /** Checks a call's arguments against its tool's `parameters` schema. */
  checkInput(call: ToolCall): ToolInputCheck {
    return this.schemas.check(call);
  }

  /** What the tool declares of itself; undefined for an unknown tool. */
  traits(name: string): (ToolTraits & { parallelSafe: boolean }) | undefined {
    const tool = this.byName.get(name);
    if (!tool) return undefined;
    return {
      idempotent: tool.idempotent === true,
      requiresApproval: tool.requiresApproval === true,
      expectedDurationMs: tool.expectedDurationMs,
      parallelSafe: tool.parallelSafe === true,
    };
  }

  async execute(call: ToolCall, context: ToolCallContext): Promise<string> {
    const tool = this.byName.get(call.name);
    if (!tool) return unknownToolResult(call.name);
    const check = this.schemas.check(call);
    if (!check.ok)
      return `error: the arguments of "${call.name}" do not fit its schema: ${check.error}`;
    const args = parseToolArguments(call);
    try {
      // Not cut short here: the run's handle stops waiting at the abort, and keeps this promise
      // to tell whether the tool still runs (a tool that ignores its signal) at exit.
      return await tool.execute(args, context);
    } catch (error) {
      if (error instanceof CallAbortedError || context.signal.aborted) throw new CallAbortedError();
      return `error: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}
