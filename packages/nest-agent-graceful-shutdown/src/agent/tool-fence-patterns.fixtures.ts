import type { DataSource } from 'typeorm';
import type { AgentTool } from './agent-tool.interface.js';
import { sharedTransaction } from '../typeorm-store/shared-transaction.js';

// The two patterns the README shows under "Idempotency keys and fencing tokens", verbatim between
// the region markers (a spec compares them with the README), so the documented code is the tested code.

// #region http
/** A tool whose HTTP service keeps one answer per `Idempotency-Key` and replays it. */
export function paymentTool(url: string): AgentTool {
  return {
    definition: { name: 'pay', description: 'pays an invoice', parameters: { type: 'object' } },
    async execute(args, { idempotencyKey, signal }) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': idempotencyKey },
        body: JSON.stringify(args),
        signal,
      });
      if (!response.ok) throw new Error(`payment refused: HTTP ${response.status}`);
      return response.text();
    },
  };
}
// #endregion http

// #region database
/** A tool whose table refuses a write from an attempt older than the last one it saw. */
export function stockTool(dataSource: DataSource): AgentTool {
  return {
    definition: { name: 'reserve', description: 'reserves stock', parameters: { type: 'object' } },
    async execute(args, { fencingToken }) {
      const { sku, quantity } = args as { sku: string; quantity: number };
      const { affected } = await sharedTransaction(dataSource, (manager) =>
        manager
          .createQueryBuilder()
          .update('stock')
          .set({ reserved: () => 'reserved + :quantity', fence: fencingToken })
          .where('sku = :sku AND fence <= :token', { sku, token: fencingToken, quantity })
          .execute(),
      );
      if (!affected)
        throw new Error(
          `stale fencing token ${fencingToken}: a newer attempt of this run holds ${sku}`,
        );
      return `reserved ${quantity} of ${sku}`;
    },
  };
}
// #endregion database
