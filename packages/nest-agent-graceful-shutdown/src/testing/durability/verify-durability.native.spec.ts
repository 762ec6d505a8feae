import { verifyDurability } from './verify-durability.js';
import { nativeOrderAgent, ORDER_ANSWER } from './order-agent.fixtures.js';

describe('verifyDurability on the native runtime', () => {
  it('finds no failure for an order agent interrupted at every point', async () => {
    const report = await verifyDurability(() => nativeOrderAgent(), { input: 'Order 42: charge and send the receipt' });

    expect(report.failures).toEqual([]);
    expect(report.finalAnswer).toBe(ORDER_ANSWER);
    expect(report.points.map((point) => point.point)).toEqual([
      'pre-reasoning#1',
      'pre-reasoning#2',
      'pre-reasoning#3',
      'pre-reasoning#4',
      'pre-acting#1 look_up_order',
      'pre-acting#2 charge_card',
      'pre-acting#3 send_receipt',
      'mid-stream#1',
      'mid-stream#2',
      'mid-stream#4',
      'mid-tool#1 look_up_order',
      'mid-tool#2 charge_card',
      'mid-tool#3 send_receipt',
    ]);
  });
});
