import { describeFrameworkAgent } from './support/framework-agent-suite';

// The SDK sends an assistant text as content parts, which the chat format allows.
describeFrameworkAgent('openai-agents', 'the OpenAI Agents SDK', {
  assistantText: (text) => [{ type: 'text', text }],
});
