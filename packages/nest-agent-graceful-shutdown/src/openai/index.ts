// `nest-agent-graceful-shutdown/openai`: any OpenAI-compatible Chat Completions model (optional peer `openai`).
export { OpenAiChatModel, type OpenAiChatModelOptions } from './openai-chat.model.js';
