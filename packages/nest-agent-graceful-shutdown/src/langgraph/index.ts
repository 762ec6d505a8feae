// `nest-agent-graceful-shutdown/langgraph`: compiled LangGraph.js graphs (`@langchain/langgraph` 1), run under the module.
export { langGraphAgent, LangGraphAgent } from './langgraph-agent';
export type { CompiledGraph, LangGraphAgentOptions } from './langgraph-types';
export { HandleCheckpointer } from './handle-checkpointer';
export { durableTool, runOf } from './durable-tools';
export { fromLangChain, toLangChain } from './lc-messages';
export { toolFence } from './tool-fence';
export type { ToolFence } from '../agent/tool-fence';
