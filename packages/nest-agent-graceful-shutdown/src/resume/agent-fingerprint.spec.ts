import { agentFingerprint } from './agent-fingerprint.js';

const charge = {
  name: 'charge_card',
  inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
};
const receipt = { name: 'send_receipt', inputSchema: { type: 'object' } };

describe('agentFingerprint', () => {
  it('is 16 hex digits', () => {
    expect(agentFingerprint({ tools: [charge] })).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is the same whatever the order of tools, of schema keys, of nodes and of channels', () => {
    const reordered = {
      name: 'charge_card',
      inputSchema: {
        required: ['amount'],
        properties: { amount: { type: 'number' } },
        type: 'object',
      },
    };

    expect(
      agentFingerprint({
        tools: [receipt, reordered],
        graph: { nodes: ['b', 'a'], channels: ['y', 'x'] },
      }),
    ).toBe(
      agentFingerprint({
        tools: [charge, receipt],
        graph: { nodes: ['a', 'b'], channels: ['x', 'y'] },
      }),
    );
  });

  it('changes when a tool is removed', () => {
    expect(agentFingerprint({ tools: [receipt] })).not.toBe(
      agentFingerprint({ tools: [charge, receipt] }),
    );
  });

  it("changes when a tool's input schema changes", () => {
    const withCurrency = {
      ...charge,
      inputSchema: { ...charge.inputSchema, required: ['amount', 'currency'] },
    };

    expect(agentFingerprint({ tools: [withCurrency] })).not.toBe(
      agentFingerprint({ tools: [charge] }),
    );
  });

  it("changes when a graph's nodes or channels change", () => {
    const before = agentFingerprint({
      tools: [],
      graph: { nodes: ['agent'], channels: ['messages'] },
    });

    expect(
      agentFingerprint({
        tools: [],
        graph: { nodes: ['agent', 'planner'], channels: ['messages'] },
      }),
    ).not.toBe(before);
    expect(
      agentFingerprint({ tools: [], graph: { nodes: ['agent'], channels: ['messages', 'plan'] } }),
    ).not.toBe(before);
  });

  it('gives an agent that describes nothing the fingerprint of no tools', () => {
    expect(agentFingerprint(undefined)).toBe(agentFingerprint({ tools: [] }));
  });
});
