// `nest-agent-graceful-shutdown/langgraph`: compiled LangGraph.js graphs (`@langchain/langgraph` 1), run under the module.
export { langGraphAgent, LangGraphAgent } from './langgraph-agent.js';
export type { CompiledGraph, LangGraphAgentOptions } from './langgraph-types.js';
export { HandleCheckpointer } from './handle-checkpointer.js';
export { GRAPH_STATE_ADAPTED_EVENT, type GraphStateDecision } from './graph-state-adaptation.js';
export { durableTool, runOf } from './durable-tools.js';
export { fromLangChain, toLangChain } from './lc-messages.js';
export { toolFence } from './tool-fence.js';
export type { ToolFence } from '../agent/tool-fence.js';
