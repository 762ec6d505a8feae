import { verifyDurability } from './verify-durability.js';
import { nativeOrderAgent, ORDER_ANSWER, ORDER_POINTS } from './order-agent.fixtures.js';

describe('verifyDurability on the native runtime', () => {
  it('finds no failure for an order agent interrupted at every point', async () => {
    const report = await verifyDurability(() => nativeOrderAgent(), { input: 'Order 42: charge and send the receipt' });

    expect(report.failures).toEqual([]);
    expect(report.finalAnswer).toBe(ORDER_ANSWER);
    expect(report.points.map((point) => point.point)).toEqual(ORDER_POINTS);
  });
});
