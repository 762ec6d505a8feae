import type { ToolCallContext } from '../agent/agent-tool.interface.js';
import { ToolExecutor } from './tool-executor.js';

const context = {
  threadId: 't',
  runId: 'r',
  toolCallId: 'c1',
  idempotencyKey: 'k',
  fencingToken: 1,
  signal: new AbortController().signal,
} as ToolCallContext;

describe('ToolExecutor', () => {
  const charged: unknown[] = [];
  const executor = new ToolExecutor([
    {
      definition: {
        name: 'charge_card',
        description: 'charge',
        parameters: {
          type: 'object',
          properties: { currency: { type: 'string' } },
          required: ['currency'],
        },
      },
      execute: (args) => {
        charged.push(args);
        return Promise.resolve('charged');
      },
    },
  ]);

  beforeEach(() => (charged.length = 0));

  it('runs a call whose arguments fit its schema', async () => {
    await expect(
      executor.execute({ id: 'c1', name: 'charge_card', arguments: '{"currency":"EUR"}' }, context),
    ).resolves.toBe('charged');
    expect(charged).toEqual([{ currency: 'EUR' }]);
  });

  it('answers a call whose arguments its schema refuses with the reason, without running the tool', async () => {
    await expect(
      executor.execute({ id: 'c1', name: 'charge_card', arguments: '{}' }, context),
    ).resolves.toBe(
      `error: the arguments of "charge_card" do not fit its schema: arguments must have required property 'currency'`,
    );
    expect(charged).toEqual([]);
  });

  it('answers a call of an unknown tool', async () => {
    await expect(
      executor.execute({ id: 'c1', name: 'refund', arguments: '{}' }, context),
    ).resolves.toBe('error: unknown tool "refund"');
  });
});
