// `nest-agent-graceful-shutdown/ai-sdk`: agents written with the AI SDK (`ai` 6), run under the module.
export { aiSdkAgent, AiSdkAgent, type AiSdkAgentOptions } from './ai-sdk-agent';
export type { AiSdkAgentSettings } from './ai-sdk-types';
export { durableMiddleware } from './durable-middleware';
