import { describeFrameworkAgent } from './support/framework-agent-suite';

describeFrameworkAgent('ai-sdk', 'the AI SDK', { assistantText: (text) => text });
