import { Ajv, type ValidateFunction } from 'ajv';
import type { ToolCall } from '../agent/agent-message.js';
import type { ToolInputCheck } from '../agent/agent-release.js';
import type { AgentTool } from '../agent/agent-tool.interface.js';
import { parseToolArguments } from '../handle/tool-call-text.js';

/**
 * The native tools' input checks: each tool's `parameters` JSON Schema, compiled once (Ajv) on
 * first use. A schema Ajv cannot compile refuses nothing, as a model provider that takes it
 * would not either.
 */
export class ToolInputSchemas {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(private readonly byName: ReadonlyMap<string, AgentTool>) {}

  /** Checks `call`'s arguments against its tool's schema; an unknown tool passes (the caller knows it is unknown). */
  check(call: ToolCall): ToolInputCheck {
    const validate = this.validatorOf(call.name);
    let args: unknown;
    try {
      args = parseToolArguments(call);
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
    if (!validate || validate(args)) return { ok: true };
    return { ok: false, error: this.ajv.errorsText(validate.errors, { dataVar: 'arguments' }) };
  }

  private validatorOf(name: string): ValidateFunction | null {
    if (!this.compiled.has(name)) {
      const schema = this.byName.get(name)?.definition.parameters;
      this.compiled.set(name, schema ? compileOrNull(this.ajv, schema) : null);
    }
    return this.compiled.get(name) ?? null;
  }
}

function compileOrNull(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction | null {
  try {
    return ajv.compile(schema);
  } catch {
    return null;
  }
}
