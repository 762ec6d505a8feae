// `nest-agent-graceful-shutdown/ai-sdk`: agents written with the AI SDK, run under the module.
// Works with the `ai` the host installed: AI SDK 7 (models of specification v4, or v3) or AI SDK 6 (v3);
// the adapter reads the installed major once (`installed-ai.ts`) and passes what that major takes.
export { aiSdkAgent, AiSdkAgent, type AiSdkAgentOptions } from './ai-sdk-agent.js';
export type { AiSdkAgentSettings } from './ai-sdk-types.js';
export { durableMiddleware } from './durable-middleware.js';
export { toolFence } from './tool-fence.js';
export type { ToolFence } from '../agent/tool-fence.js';
