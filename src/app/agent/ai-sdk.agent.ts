import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, stepCountIs, tool } from 'ai';
import { toolFenceOf, type DurableAgent } from 'nest-agent-graceful-shutdown/store';
import { aiSdkAgent, toolFence } from 'nest-agent-graceful-shutdown/ai-sdk';
import type { AppConfig } from '../config/app-config';
import type { DemoLedger } from '../demo/demo-ledger';
import { DemoTool } from '../demo/demo-tool';
import { DemoLanguageModel } from './ai-sdk/demo-language-model';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt';

/** The run a demo tool call belongs to, as the adapter passes it to tools (their `context`). */
type RunContext = {
  threadId: string;
  runId: string;
};

/**
 * The reference agent written with the AI SDK (AGENT_FRAMEWORK=ai-sdk): `streamText` settings
 * with the demo tool, on the demo model or, with `MODEL_PROVIDER=openai`, any OpenAI-compatible
 * server through the Chat Completions API (`openai.chat(model)`).
 */
export function aiSdkServiceAgent(config: AppConfig, ledger: DemoLedger): DurableAgent {
  const demo = new DemoTool(config.demo.toolMs, ledger, config.demo.requireApproval);
  const demoStep = tool({
    description: demo.definition.description,
    inputSchema: jsonSchema<{ step: number }>(demo.definition.parameters),
    execute: (input, options) => {
      const run = options.context as RunContext;
      const fence = toolFence(options) ?? toolFenceOf(run.threadId, options.toolCallId, 0);
      return demo.execute(input, {
        threadId: run.threadId,
        runId: run.runId,
        toolCallId: options.toolCallId,
        ...fence,
        signal: options.abortSignal ?? new AbortController().signal,
      });
    },
  });
  const openai = config.modelProvider === 'openai' ? config.openai : undefined;
  const model = openai
    ? createOpenAI({ baseURL: openai.baseUrl, apiKey: openai.apiKey ?? 'unset' }).chat(openai.model)
    : new DemoLanguageModel({ steps: config.demo.steps, reasoningMs: config.demo.reasoningMs });
  return aiSdkAgent(
    {
      model,
      system: config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      tools: { [demo.definition.name]: demoStep },
      stopWhen: stepCountIs(openai ? 25 : config.demo.steps + 5),
      ...(openai ? { maxRetries: openai.maxRetries, temperature: openai.temperature } : {}),
    },
    {
      toolTraits: {
        [demo.definition.name]: {
          idempotent: demo.idempotent,
          requiresApproval: demo.requiresApproval,
          expectedDurationMs: demo.expectedDurationMs,
        },
      },
      expectedReasoningMs: openai?.expectedDurationMs ?? config.demo.reasoningMs,
    },
  );
}
