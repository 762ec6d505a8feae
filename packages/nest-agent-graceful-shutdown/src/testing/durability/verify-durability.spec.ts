import {
  nativeOrderAgent,
  ORDER_ANSWER,
  ORDER_POINTS,
  WITH_CURRENCY,
  WITHOUT_CHARGE,
} from './order-agent.fixtures.js';
import { RetryingAgent } from './retrying-agent.fixtures.js';
import { verifyDurability } from './verify-durability.js';

const input = 'Order 42: charge and send the receipt';

describe('verifyDurability on the native runtime', () => {
  it('finds no failure for an order agent interrupted at every point', async () => {
    const report = await verifyDurability(() => nativeOrderAgent(), { input });

    expect(report.failures).toEqual([]);
    expect(report.finalAnswer).toBe(ORDER_ANSWER);
    expect(report.points.map((point) => point.point)).toEqual(ORDER_POINTS);
  });
});

describe('verifyDurability across a version change', () => {
  it('reports the pending charge answered "not run" when the next version has no charge_card', async () => {
    const report = await verifyDurability(() => nativeOrderAgent(), {
      input,
      next: () => nativeOrderAgent(WITHOUT_CHARGE),
    });
    const pending = report.points.find(
      (point) => point.acrossVersions && point.point === 'pre-acting#2 charge_card',
    );

    expect(report.failures).toEqual([]);
    expect(pending?.notRun).toEqual([
      { toolCallId: 'call-charge', tool: 'charge_card', reason: 'tool_removed' },
    ]);
    expect(pending?.versionChange).toMatchObject({
      from: { version: '1.0.0' },
      to: { version: '2.0.0' },
      refused: false,
    });
  });

  it('reports the pending charge answered "not run" when the next version requires a currency', async () => {
    const report = await verifyDurability(() => nativeOrderAgent(), {
      input,
      next: () => nativeOrderAgent(WITH_CURRENCY),
    });
    const pending = report.points.find(
      (point) => point.acrossVersions && point.point === 'pre-acting#2 charge_card',
    );

    expect(report.failures).toEqual([]);
    expect(pending?.notRun).toEqual([
      { toolCallId: 'call-charge', tool: 'charge_card', reason: 'invalid_arguments' },
    ]);
  });

  it('reports a resume the policy refuses, with both releases', async () => {
    const next = () => ({ ...nativeOrderAgent(WITH_CURRENCY), onVersionChange: 'refuse' as const });
    const report = await verifyDurability(() => nativeOrderAgent(), { input, next });
    const refused = report.points.filter((point) => point.acrossVersions);

    expect(refused.map((point) => point.versionChange?.refused)).toEqual(refused.map(() => true));
    expect(refused[0].versionChange).toMatchObject({
      from: { version: '1.0.0' },
      to: { version: '2.0.0' },
    });
  });

  it('fails a point whose resume runs a tool on arguments the next version refuses', async () => {
    const stale = { ...WITH_CURRENCY, turns: undefined };
    const report = await verifyDurability(() => nativeOrderAgent(), {
      input,
      next: () => nativeOrderAgent(stale),
    });

    expect(report.failures).toContain(
      `pre-reasoning#2 (resumed on the next version): charge_card call "call-charge" ran on arguments the new version refuses: arguments must have required property 'currency'`,
    );
  });
});

describe('verifyDurability on a broken agent', () => {
  it('reports the charge run twice and answered twice when the loop retries a call of unknown outcome', async () => {
    const report = await verifyDurability(() => new RetryingAgent(), { input });
    const midCharge = report.points.find((point) => point.point === 'mid-tool#2 charge_card');

    expect(midCharge?.ok).toBe(false);
    expect(midCharge?.failures).toEqual([
      'the history answers charge_card call "call-charge" 2 times (once expected)',
      'charge_card call "call-charge" ran 2 times (attempts 1, 2)',
      'charge_card ran 2 times on {"orderId":42,"amount":1999} (1 in the uninterrupted run)',
    ]);
    expect(report.failures).toContain(
      'mid-tool#2 charge_card: charge_card call "call-charge" ran 2 times (attempts 1, 2)',
    );
  });
});
