import type { RunnableConfig } from '@langchain/core/runnables';
import type { ToolFence } from '../agent/tool-fence.js';
import { toolFenceIn } from '../handle/tool-fence-carrier.js';

/**
 * The idempotency key and fencing token of the tool call whose tool got `config`, when it
 * runs under the module (through `durableTool` or a resumed step); undefined otherwise.
 *
 * @example
 * const book = tool(
 *   async ({ seat }, config) => {
 *     const fence = toolFence(config);
 *     return reserve(seat, { idempotencyKey: fence?.idempotencyKey, fencingToken: fence?.fencingToken });
 *   },
 *   { name: 'book', schema: z.object({ seat: z.string() }) },
 * );
 */
export function toolFence(config: RunnableConfig | undefined): ToolFence | undefined {
  return toolFenceIn(config);
}
