import { RunContext } from '@openai/agents';
import type { ToolTraits } from '../handle/run-handle.interface.js';
import type { SdkFunctionTool, SdkTool } from './sdk-types.js';

/**
 * The module's view of an agent's tools: the traits declared in the options, plus
 * `requiresApproval` for a tool whose SDK `needsApproval` says so. The SDK's policy is asked
 * once, with empty input (a static `needsApproval: true` answers true); a policy that depends on
 * the arguments must be declared in `toolTraits`.
 */
export class ToolTraitsTable {
  /** Settles once every tool's approval policy was asked. */
  readonly ready: Promise<void>;
  private readonly known: Set<string>;
  private readonly approvalBySdk = new Set<string>();

  constructor(
    tools: readonly SdkTool[],
    private readonly declared: Readonly<Record<string, ToolTraits>> = {},
  ) {
    const functions = functionTools(tools);
    this.known = new Set(functions.map((tool) => tool.name));
    this.ready = Promise.all(functions.map((tool) => this.askPolicy(tool))).then(() => undefined);
  }

  /** The traits of a tool by name; undefined for a tool the agent does not have. */
  of(name: string): ToolTraits | undefined {
    const declared = this.declared[name];
    if (!declared && !this.known.has(name)) return undefined;
    return {
      ...declared,
      requiresApproval: declared?.requiresApproval ?? this.approvalBySdk.has(name),
    };
  }

  private async askPolicy(tool: SdkFunctionTool): Promise<void> {
    let needed: boolean;
    try {
      needed = await tool.needsApproval(new RunContext(), {} as never, '');
    } catch {
      // A policy that cannot judge empty input is taken as asking for approval: the safe side.
      needed = true;
    }
    if (needed) this.approvalBySdk.add(tool.name);
  }
}

/** The function tools among an agent's tools (hosted tools run on the provider's side). */
export function functionTools(tools: readonly SdkTool[]): SdkFunctionTool[] {
  return tools.filter((tool): tool is SdkFunctionTool => tool.type === 'function');
}
