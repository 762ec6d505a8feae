import type { AgentMessage } from './agent-message.js';

/** How a count of tokens was made: from the provider's usage, or estimated from the text (`CHARS_PER_TOKEN`). */
export type TokenCountSource = 'usage' | 'estimate';

/**
 * What a model call cut off by a stop cost for nothing (`agent_model_tokens_discarded_total`):
 * `output` it had streamed, thrown away or kept only as a truncated answer, and `input` it was
 * sent, which the resumed run sends again.
 */
export interface DiscardedTokens {
  input: number;
  output: number;
  source: TokenCountSource;
}

/**
 * Characters per token of the estimate: the usual rule of thumb for English text with the
 * common tokenizers. A call cut off by a stop reports no usage, so its tokens are estimated.
 */
export const CHARS_PER_TOKEN = 4;

/** The estimated tokens of `characters` characters of text. */
export function estimateTokens(characters: number): number {
  return Math.ceil(characters / CHARS_PER_TOKEN);
}

/** The estimated tokens of the messages a model call was sent: their text, and the names and arguments of their tool calls. */
export function estimateMessageTokens(messages: readonly AgentMessage[]): number {
  let characters = 0;
  for (const message of messages) {
    characters += message.content.length;
    for (const call of message.toolCalls ?? [])
      characters += call.name.length + call.arguments.length;
  }
  return estimateTokens(characters);
}
