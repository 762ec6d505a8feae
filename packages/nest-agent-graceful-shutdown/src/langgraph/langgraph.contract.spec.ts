import { describeRunHandleContract } from '../testing/run-handle.contract.js';
import { langGraphAgent } from './langgraph-agent.js';
import { langChainTool, reactGraph, ScriptedChatModel } from './scripted-chat-model.fixtures.js';

describeRunHandleContract('langgraph adapter', {
  agent({ turns, tools, hold }) {
    const model = new ScriptedChatModel(turns, hold);
    const graph = reactGraph(model, tools.map(langChainTool));
    const toolTraits = Object.fromEntries(
      tools.map((t) => [
        t.name,
        { idempotent: t.idempotent, requiresApproval: t.requiresApproval },
      ]),
    );
    return {
      agent: langGraphAgent(graph, { toolTraits, config: { recursionLimit: 50 } }),
      modelCalls: () => model.calls,
    };
  },
});
