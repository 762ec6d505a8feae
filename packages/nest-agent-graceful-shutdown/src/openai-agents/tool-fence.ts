import type { ToolFence } from '../agent/tool-fence.js';
import { toolFenceIn } from '../handle/tool-fence-carrier.js';

/**
 * The idempotency key and fencing token of the function-tool call whose `execute` got
 * `details` (its third argument), when it runs under the module; undefined otherwise.
 *
 * @example
 * const charge = tool({
 *   name: 'charge',
 *   parameters: z.object({ amount: z.number() }),
 *   execute: async ({ amount }, _runContext, details) => {
 *     const fence = toolFence(details);
 *     const headers = fence ? { 'Idempotency-Key': fence.idempotencyKey } : undefined;
 *     return (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ amount }) })).text();
 *   },
 * });
 */
export function toolFence(details: unknown): ToolFence | undefined {
  return toolFenceIn(details);
}
