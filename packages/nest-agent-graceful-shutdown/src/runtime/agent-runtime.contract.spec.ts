import { describeRunHandleContract } from '../testing/run-handle.contract.js';
import type { AgentModel } from '../agent/agent-model.interface.js';
import type { AgentTool } from '../agent/agent-tool.interface.js';
import { AgentRuntime } from './agent-runtime.js';

describeRunHandleContract('native runtime', {
  agent({ turns, tools, hold }) {
    let calls = 0;
    const model: AgentModel = {
      name: 'scripted',
      async generate(_request, context) {
        const n = calls++;
        const wait = hold?.(n);
        if (wait) await wait;
        const turn = turns[Math.min(n, turns.length - 1)];
        const answer = { content: turn.text ?? '', toolCalls: [...(turn.toolCalls ?? [])] };
        if (answer.content) context.stream?.text(answer.content);
        return answer;
      },
    };
    const agentTools: AgentTool[] = tools.map((tool) => ({
      definition: { name: tool.name, description: tool.name, parameters: { type: 'object' } },
      idempotent: tool.idempotent,
      requiresApproval: tool.requiresApproval,
      parallelSafe: tool.parallelSafe,
      execute: (args, context) =>
        tool.execute(args as Record<string, unknown>, context.signal, {
          idempotencyKey: context.idempotencyKey,
          fencingToken: context.fencingToken,
        }),
    }));
    return { agent: new AgentRuntime({ model, tools: agentTools }), modelCalls: () => calls };
  },
});
