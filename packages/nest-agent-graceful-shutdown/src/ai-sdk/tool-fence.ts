import type { ToolFence } from '../agent/tool-fence.js';
import { toolFenceIn } from '../handle/tool-fence-carrier.js';

/**
 * The idempotency key and fencing token of the tool call whose `execute` got `options` (its
 * second argument), when the call runs under the module; undefined otherwise (a tool called
 * on its own, in a test).
 *
 * @example
 * const charge = tool({
 *   inputSchema: z.object({ amount: z.number() }),
 *   execute: async ({ amount }, options) => {
 *     const fence = toolFence(options);
 *     const headers = fence ? { 'Idempotency-Key': fence.idempotencyKey } : undefined;
 *     const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ amount }) });
 *     return response.text();
 *   },
 * });
 */
export function toolFence(options: unknown): ToolFence | undefined {
  return toolFenceIn(options);
}
