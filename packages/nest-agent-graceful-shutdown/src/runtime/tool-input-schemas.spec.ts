import type { AgentTool } from '../agent/agent-tool.interface.js';
import { ToolInputSchemas } from './tool-input-schemas.js';

function tool(name: string, parameters: Record<string, unknown>): AgentTool {
  return {
    definition: { name, description: name, parameters },
    execute: () => Promise.resolve('done'),
  };
}

const charge = tool('charge_card', {
  type: 'object',
  properties: { amount: { type: 'number' }, currency: { type: 'string' } },
  required: ['amount', 'currency'],
});

describe('ToolInputSchemas', () => {
  const schemas = new ToolInputSchemas(new Map([['charge_card', charge]]));

  it('accepts arguments that fit the schema', () => {
    expect(
      schemas.check({ id: 'c1', name: 'charge_card', arguments: '{"amount":10,"currency":"EUR"}' }),
    ).toEqual({ ok: true });
  });

  it('refuses arguments that lack a required property, naming it', () => {
    expect(schemas.check({ id: 'c1', name: 'charge_card', arguments: '{"amount":10}' })).toEqual({
      ok: false,
      error: "arguments must have required property 'currency'",
    });
  });

  it('refuses arguments of the wrong type', () => {
    expect(
      schemas.check({
        id: 'c1',
        name: 'charge_card',
        arguments: '{"amount":"ten","currency":"EUR"}',
      }),
    ).toMatchObject({
      ok: false,
      error: expect.stringContaining('amount'),
    });
  });

  it('refuses arguments that are not JSON', () => {
    expect(schemas.check({ id: 'c1', name: 'charge_card', arguments: '{amount' })).toEqual({
      ok: false,
      error: 'the arguments of "charge_card" are not valid JSON',
    });
  });

  it('accepts any arguments of a tool whose schema cannot be compiled', () => {
    const odd = new ToolInputSchemas(new Map([['odd', tool('odd', { type: 'no-such-type' })]]));

    expect(odd.check({ id: 'c1', name: 'odd', arguments: '{}' })).toEqual({ ok: true });
  });
});
