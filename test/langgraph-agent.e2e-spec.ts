import { describeFrameworkAgent } from './support/framework-agent-suite';

describeFrameworkAgent('langgraph', 'LangGraph.js', { assistantText: (text) => text });
