import { Agent, Runner, tool } from '@openai/agents';
import { describeRunHandleContract } from '../testing/run-handle.contract.js';
import { openAiAgent } from './open-ai-agent.js';
import { toolFence } from './tool-fence.js';
import { ScriptedModel } from './scripted-model.fixtures.js';

describeRunHandleContract('openai-agents', {
  agent({ turns, tools, hold }) {
    const model = new ScriptedModel(turns, hold);
    const agentTools = tools.map((t) =>
      tool({
        name: t.name,
        description: t.name,
        parameters: { type: 'object', properties: {}, additionalProperties: true, required: [] },
        strict: false,
        needsApproval: t.requiresApproval ?? false,
        execute: (args, _context, details) =>
          t.execute(
            args as Record<string, unknown>,
            details?.signal ?? new AbortController().signal,
            toolFence(details),
          ),
      }),
    );
    const agent = new Agent({
      name: 'scripted',
      instructions: 'do the steps',
      model,
      tools: agentTools,
    });
    const sequential = tools.some((t) => !t.parallelSafe);
    const runner = new Runner({
      tracingDisabled: true,
      ...(sequential ? { toolExecution: { maxFunctionToolConcurrency: 1 } } : {}),
    });
    const toolTraits = Object.fromEntries(
      tools.map((t) => [t.name, { idempotent: t.idempotent ?? false }]),
    );
    return { agent: openAiAgent(agent, { runner, toolTraits }), modelCalls: () => model.calls };
  },
});
