import { jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import { describeRunHandleContract } from '../testing/run-handle.contract';
import { aiSdkAgent } from './ai-sdk-agent';
import { toolFence } from './tool-fence';
import { scriptedModel } from './scripted-model.fixtures';

describeRunHandleContract('ai-sdk adapter', {
  agent({ turns, tools, hold }) {
    const { model, calls } = scriptedModel(turns, hold);
    const toolSet: ToolSet = Object.fromEntries(
      tools.map((t) => [
        t.name,
        tool({
          description: t.name,
          inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
          execute: (input, options) => t.execute(input, options.abortSignal ?? new AbortController().signal, toolFence(options)),
        }),
      ]),
    );
    const toolTraits = Object.fromEntries(tools.map((t) => [t.name, { idempotent: t.idempotent, requiresApproval: t.requiresApproval }]));
    return { agent: aiSdkAgent({ model, tools: toolSet, stopWhen: stepCountIs(20) }, { toolTraits }), modelCalls: calls };
  },
});
