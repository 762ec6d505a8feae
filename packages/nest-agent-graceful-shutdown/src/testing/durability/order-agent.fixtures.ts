import { z } from 'zod';
import type { AgentDefinition } from '../../agent/agent-definition.js';
import type { AgentModel } from '../../agent/agent-model.interface.js';
import type { AgentTool } from '../../agent/agent-tool.interface.js';
import type { ContractTool, ScriptedTurn } from '../run-handle-harness.js';
import { scriptFromConversation } from './conversation-script.js';
import { verifyDurability } from './verify-durability.js';
import type { DurableAgent } from '../../handle/run-handle.interface.js';

/** The order agent's answer once it has looked the order up, charged the card and sent the receipt. */
export const ORDER_ANSWER = 'Order 42 is charged and its receipt is sent.';

/** Looks up, charges, sends the receipt, answers: one tool per turn. */
export const ORDER_TURNS: readonly ScriptedTurn[] = [
  {
    text: 'Looking the order up.',
    toolCalls: [{ id: 'call-look-up', name: 'look_up_order', arguments: '{"orderId":42}' }],
  },
  {
    text: 'Charging the card.',
    toolCalls: [
      { id: 'call-charge', name: 'charge_card', arguments: '{"orderId":42,"amount":1999}' },
    ],
  },
  { toolCalls: [{ id: 'call-receipt', name: 'send_receipt', arguments: '{"orderId":42}' }] },
  { text: ORDER_ANSWER },
];

/** The points an uninterrupted run of the order agent passes: the last turn's and the receipt turn's answers stream no text. */
export const ORDER_POINTS = [
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
];

const objectOf = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});

/** The order tools' input schemas (JSON Schema), by name. */
export const ORDER_SCHEMAS: Record<string, Record<string, unknown>> = {
  look_up_order: objectOf({ orderId: { type: 'number' } }),
  charge_card: objectOf({ orderId: { type: 'number' }, amount: { type: 'number' } }),
  send_receipt: objectOf({ orderId: { type: 'number' } }),
};

/**
 * A zod schema of one of the order tools' JSON Schemas (objects of required numbers and
 * strings): the AI SDK and the Agents SDK check a tool's input against a zod schema, and
 * against a plain JSON Schema only when it is given a validator.
 */
export function zodOf(schema: Record<string, unknown>): z.ZodObject<Record<string, z.ZodTypeAny>> {
  const properties = schema.properties as Record<string, { type: 'number' | 'string' }>;
  return z.object(
    Object.fromEntries(
      Object.entries(properties).map(([name, { type }]) => [
        name,
        type === 'number' ? z.number() : z.string(),
      ]),
    ),
  );
}

/** The order tools in neutral terms; `look_up_order` only reads, so it is idempotent. */
export const ORDER_TOOLS: readonly ContractTool[] = [
  {
    name: 'look_up_order',
    idempotent: true,
    execute: async () => 'order 42: 19.99 EUR, card on file',
  },
  { name: 'charge_card', execute: async () => 'charged 19.99 EUR' },
  { name: 'send_receipt', execute: async () => 'receipt sent' },
];

/** A native model that streams the turn the conversation is at, word by word, honouring its signal. */
export function conversationModel(turns: readonly ScriptedTurn[] = ORDER_TURNS): AgentModel {
  const turnFor = scriptFromConversation(turns);
  return {
    name: 'scripted',
    async generate({ messages }, { signal, stream }) {
      const turn = turnFor(messages);
      for (const word of (turn.text ?? '').split(/(?<= )/)) {
        signal.throwIfAborted();
        if (word) stream?.text(word);
        await Promise.resolve();
      }
      signal.throwIfAborted();
      return {
        content: turn.text ?? '',
        toolCalls: (turn.toolCalls ?? []).map((call) => ({ ...call })),
      };
    },
  };
}

/** What a later version of the order agent changes: its label, some input schemas, a tool it no longer has, its model's script. */
export interface OrderAgentChanges {
  version?: string;
  schemas?: Record<string, Record<string, unknown>>;
  drop?: string;
  turns?: readonly ScriptedTurn[];
}

/** Version 2 of the order agent: `charge_card` needs a `currency`, and its model sends one. */
export const WITH_CURRENCY: OrderAgentChanges = {
  version: '2.0.0',
  schemas: {
    charge_card: objectOf({
      orderId: { type: 'number' },
      amount: { type: 'number' },
      currency: { type: 'string' },
    }),
  },
  turns: ORDER_TURNS.map((turn) =>
    turn.toolCalls?.[0].name === 'charge_card'
      ? {
          ...turn,
          toolCalls: [
            {
              id: 'call-charge-eur',
              name: 'charge_card',
              arguments: '{"orderId":42,"amount":1999,"currency":"EUR"}',
            },
          ],
        }
      : turn,
  ),
};

/** Version 2 of the order agent without `charge_card` (payments moved elsewhere): its model no longer asks for it. */
export const WITHOUT_CHARGE: OrderAgentChanges = {
  version: '2.0.0',
  drop: 'charge_card',
  turns: ORDER_TURNS.filter((turn) => turn.toolCalls?.[0].name !== 'charge_card'),
};

/** The order agent on the native runtime. */
export function nativeOrderAgent(changes: OrderAgentChanges = {}): AgentDefinition {
  const schemas = { ...ORDER_SCHEMAS, ...changes.schemas };
  const tools: AgentTool[] = ORDER_TOOLS.filter((tool) => tool.name !== changes.drop).map(
    (tool) => ({
      definition: { name: tool.name, description: tool.name, parameters: schemas[tool.name] },
      idempotent: tool.idempotent,
      execute: (args, context) => tool.execute(args as Record<string, unknown>, context.signal),
    }),
  );
  return { model: conversationModel(changes.turns), tools, version: changes.version ?? '1.0.0' };
}

/**
 * The durability cases every adapter's order agent passes: no failure when interrupted at every
 * point, and across a change to `next` (a `WITH_CURRENCY` or `WITHOUT_CHARGE` version of it),
 * the pending charge answered "not run" for `reason`.
 */
export function describeOrderAgentDurability(
  orderAgent: (changes?: OrderAgentChanges) => AgentDefinition | DurableAgent,
  next: {
    changes: OrderAgentChanges;
    reason: 'invalid_arguments' | 'tool_removed';
    points?: 'exactly' | 'at least';
    /** False when the installed framework has no input check a resume can call (the call is then let through). @default true */
    checked?: () => Promise<boolean>;
  },
): void {
  const input = 'Order 42: charge and send the receipt';

  it('finds no failure for an order agent interrupted at every point', async () => {
    const report = await verifyDurability(() => orderAgent(), { input });

    expect(report.failures).toEqual([]);
    expect(report.finalAnswer).toBe(ORDER_ANSWER);
    const points = report.points.map((point) => point.point);
    if (next.points === 'at least') expect(points).toEqual(expect.arrayContaining(ORDER_POINTS));
    else expect(points).toEqual(ORDER_POINTS);
  });

  it(`reports the pending charge answered "not run" (${next.reason}) across a change of version`, async () => {
    const report = await verifyDurability(() => orderAgent(), {
      input,
      next: () => orderAgent(next.changes),
    });
    const pending = report.points.find(
      (point) => point.acrossVersions && point.point === 'pre-acting#2 charge_card',
    );

    expect(report.failures).toEqual([]);
    const checked = next.checked ? await next.checked() : true;
    expect(pending?.notRun).toEqual(
      checked
        ? [{ toolCallId: 'call-charge', tool: 'charge_card', reason: next.reason }]
        : undefined,
    );
  });
}
