// `nest-agent-graceful-shutdown/openai-agents`: run an OpenAI Agents SDK agent under the module
// (needs the optional peer `@openai/agents`).
export { openAiAgent, OpenAiAgentsAdapter } from './open-ai-agent.js';
export type { DurableRunContext, OpenAiAgentOptions } from './open-ai-agent-options.interface.js';
export { toolFence } from './tool-fence.js';
export type { ToolFence } from '../agent/tool-fence.js';
