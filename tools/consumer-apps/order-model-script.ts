import { randomUUID } from 'node:crypto';

/** One message of a Chat Completions request, as far as the order script reads it. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string } }>;
}

/** One tool a Chat Completions request offers. */
export interface ChatTool {
  function: { name: string; parameters?: { required?: string[] } };
}

/** What the scripted model answers: one tool call, or the final text. */
export type ScriptedReply =
  { call: { id: string; name: string; arguments: string } } | { text: string };

/**
 * The scripted order model behind `model: "order-model"` (the consumer apps' AI SDK order
 * agent), which settles the thread's one order: from the tool results so far and the tools it is
 * offered, it looks the order up, charges it (with the order's currency when `charge_card`
 * requires one, not at all when no `charge_card` is offered), sends the receipt, then answers,
 * as the apps' native order model does. A resumed run therefore goes on where it stopped. Each
 * call has an id of its own, as a real model's would, so the apps' tool ledger names it.
 */
export function orderModelReply(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[],
): ScriptedReply {
  const names = new Map(
    messages
      .flatMap((message) => message.tool_calls ?? [])
      .map((call) => [call.id, call.function.name]),
  );
  const results = new Map(
    messages
      .filter((message) => message.role === 'tool')
      .map((message) => [names.get(message.tool_call_id ?? ''), message.content]),
  );
  const ask = (name: string, args: object): ScriptedReply => ({
    call: { id: `call-${randomUUID()}`, name, arguments: JSON.stringify(args) },
  });
  const lookedUp = results.get('look_up_order');
  if (lookedUp === undefined) return ask('look_up_order', { orderId: 'A-1' });
  const { orderId, amount, currency } = parseOrder(lookedUp);
  const charge = tools.find((tool) => tool.function.name === 'charge_card');
  if (charge && !results.has('charge_card')) {
    const withCurrency = charge.function.parameters?.required?.includes('currency') ?? false;
    return ask('charge_card', { orderId, amount, ...(withCurrency ? { currency } : {}) });
  }
  if (!results.has('send_receipt')) return ask('send_receipt', { orderId });
  return { text: `order ${orderId} is paid and its receipt sent` };
}

/** The order a `look_up_order` result holds: its JSON, as text parts or encoded once more as a JSON string by some SDK releases. */
function parseOrder(content: unknown): { orderId: string; amount: number; currency: string } {
  let value: unknown = Array.isArray(content)
    ? content.map((part: { text?: string }) => part.text ?? '').join('')
    : content;
  while (typeof value === 'string') value = JSON.parse(value);
  return value as { orderId: string; amount: number; currency: string };
}
