import type { ToolSet } from 'ai';

/** How the SDK's own approval settings of one agent map onto the module's approval pause. */
export interface SdkApproval {
  /** Names of the tools the SDK would ask the user about: these pause the run with the module's approval instead. */
  readonly toolNames: ReadonlySet<string>;
  /** AI SDK 7's `toolApproval` less the entries that ask the user (`undefined` when none is left). */
  readonly toolApproval: Record<string, unknown> | undefined;
}

/**
 * Reads the SDK's approval settings per tool name: a tool's `needsApproval` (AI SDK 6, deprecated
 * in 7) and AI SDK 7's `toolApproval` entries that are `'user-approval'` or a function (an entry
 * overrides the tool's `needsApproval`). A function is not asked per call: the module's approval
 * is per tool name. Entries that decide by themselves (`'approved'`, `'denied'`,
 * `'not-applicable'`) stay with the SDK.
 *
 * @throws TypeError for a `toolApproval` function over all tools, which cannot be read per tool name.
 */
export function sdkApproval(tools: ToolSet, toolApproval: unknown): SdkApproval {
  if (typeof toolApproval === 'function') {
    throw new TypeError(
      'aiSdkAgent reads toolApproval per tool name (the module pauses a run for approval per tool): give { [toolName]: "user-approval" } or toolTraits[toolName].requiresApproval instead of one function',
    );
  }
  const names = new Set(
    Object.entries(tools).flatMap(([name, tool]) =>
      (tool as { needsApproval?: unknown }).needsApproval ? [name] : [],
    ),
  );
  const kept: Record<string, unknown> = {};
  for (const [name, status] of Object.entries((toolApproval ?? {}) as Record<string, unknown>)) {
    if (status === undefined || status === null) continue;
    // A `toolApproval` entry overrides the tool's own `needsApproval`, as in the SDK.
    if (asksUser(status)) {
      names.add(name);
    } else {
      names.delete(name);
      kept[name] = status;
    }
  }
  return { toolNames: names, toolApproval: Object.keys(kept).length ? kept : undefined };
}

function asksUser(status: unknown): boolean {
  if (typeof status === 'function' || status === 'user-approval') return true;
  return (status as { type?: unknown } | null | undefined)?.type === 'user-approval';
}
