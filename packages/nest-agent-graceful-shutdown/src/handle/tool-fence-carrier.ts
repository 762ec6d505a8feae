import type { ToolFence } from '../agent/tool-fence.js';

/**
 * The key under which an adapter hands a tool call its `ToolFence`, inside the object that
 * framework gives its tools (AI SDK execute options, Agents SDK invoke details, a LangChain
 * config's `configurable`). A string, not a symbol: LangChain copies configs by their string keys.
 */
export const TOOL_FENCE_KEY = '__nest_agent_tool_fence';

/** `target` with `fence` under `TOOL_FENCE_KEY`, as a new object. */
export function withToolFence<T extends object>(target: T, fence: ToolFence): T {
  return { ...target, [TOOL_FENCE_KEY]: fence };
}

/** The fence an adapter put in `carrier` (or in its `configurable`); undefined when the call runs outside a module run. */
export function toolFenceIn(carrier: unknown): ToolFence | undefined {
  if (typeof carrier !== 'object' || carrier === null) return undefined;
  const own = (carrier as Record<string, unknown>)[TOOL_FENCE_KEY];
  if (isToolFence(own)) return own;
  const configurable = (carrier as { configurable?: Record<string, unknown> }).configurable;
  const nested = configurable?.[TOOL_FENCE_KEY];
  return isToolFence(nested) ? nested : undefined;
}

function isToolFence(value: unknown): value is ToolFence {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ToolFence).idempotencyKey === 'string' &&
    typeof (value as ToolFence).fencingToken === 'number'
  );
}
