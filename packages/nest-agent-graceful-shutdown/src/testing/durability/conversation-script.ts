import type { ScriptedTurn } from '../run-handle-harness.js';

/**
 * A model script read from the conversation, not from a call counter: the turn played is the
 * one at the number of tool-calling answers since the last user message (the last turn repeats).
 * A resumed run, which the model sees with the same answers and results (a cut-off answer has no
 * tool calls, a resume message is not a user message), so gets the same turns as an uninterrupted run.
 *
 * It reads the messages of the native runtime (`AgentMessage`), of the AI SDK (a prompt), of
 * LangChain (`BaseMessage`) and of the OpenAI Agents SDK (input items; consecutive
 * `function_call` items are one answer).
 *
 * @example
 * const turnFor = scriptFromConversation([{ toolCalls: [lookUp] }, { toolCalls: [charge] }, { text: 'Done.' }]);
 * const model: AgentModel = { name: 'scripted', generate: async ({ messages }) => toResponse(turnFor(messages)) };
 */
export function scriptFromConversation(
  turns: readonly ScriptedTurn[],
): (messages: readonly unknown[]) => ScriptedTurn {
  if (turns.length === 0) throw new Error('scriptFromConversation needs at least one turn');
  return (messages) => turns[Math.min(toolAnswersSinceUser(messages), turns.length - 1)];
}

/** The number of answers that asked for tools since the last user message. */
export function toolAnswersSinceUser(messages: readonly unknown[]): number {
  let count = 0;
  let previousWasCall = false;
  for (const message of messages) {
    const item = message as Record<string, unknown>;
    if (isUser(item)) {
      count = 0;
      previousWasCall = false;
      continue;
    }
    const functionCall = item.type === 'function_call';
    if ((functionCall && !previousWasCall) || asksForTools(item)) count++;
    previousWasCall = functionCall;
  }
  return count;
}

function isUser(item: Record<string, unknown>): boolean {
  if (item.role === 'user') return true;
  const type =
    typeof item._getType === 'function' ? (item._getType as () => string).call(item) : item.type;
  return type === 'human';
}

function asksForTools(item: Record<string, unknown>): boolean {
  if (Array.isArray(item.toolCalls) && item.toolCalls.length > 0) return true;
  if (Array.isArray(item.tool_calls) && item.tool_calls.length > 0) return true;
  return (
    item.role === 'assistant' &&
    Array.isArray(item.content) &&
    item.content.some((part: { type?: string }) => part?.type === 'tool-call')
  );
}
