import { jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import { describeRunHandleContract } from '../testing/run-handle.contract.js';
import { aiSdkAgent } from './ai-sdk-agent.js';
import { toolFence } from './tool-fence.js';
import { scriptedModel } from './scripted-model.fixtures.js';

describeRunHandleContract('ai-sdk adapter', {
  agent({ turns, tools, hold }) {
    const { model, calls } = scriptedModel(turns, hold);
    const toolSet: ToolSet = Object.fromEntries(
      tools.map((t) => [
        t.name,
        tool({
          description: t.name,
          inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
          execute: (input, options) =>
            t.execute(
              input,
              options.abortSignal ?? new AbortController().signal,
              toolFence(options),
            ),
        }),
      ]),
    );
    const toolTraits = Object.fromEntries(
      tools.map((t) => [
        t.name,
        { idempotent: t.idempotent, requiresApproval: t.requiresApproval },
      ]),
    );
    return {
      agent: aiSdkAgent({ model, tools: toolSet, stopWhen: stepCountIs(20) }, { toolTraits }),
      modelCalls: calls,
    };
  },
});
