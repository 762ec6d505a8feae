import {
  Agent,
  OpenAIChatCompletionsModel,
  Runner,
  setTracingDisabled,
  tool,
  type Model,
} from '@openai/agents';
import { toolFenceOf, type DurableAgent } from 'nest-agent-graceful-shutdown/store';
import {
  openAiAgent,
  toolFence,
  type DurableRunContext,
} from 'nest-agent-graceful-shutdown/openai-agents';
import OpenAI from 'openai';
import { z } from 'zod';
import type { AppConfig } from '../config/app-config';
import type { DemoLedger } from '../demo/demo-ledger';
import { DemoTool } from '../demo/demo-tool';
import { DemoAgentsModel } from './openai-agents/demo-agents-model';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt';

/**
 * The reference agent written with the OpenAI Agents SDK (AGENT_FRAMEWORK=openai-agents): an SDK
 * `Agent` with the demo tool, on the demo model or, with `MODEL_PROVIDER=openai`, any
 * OpenAI-compatible server through the Chat Completions API. Traces are not exported.
 */
export function openAiAgentsServiceAgent(config: AppConfig, ledger: DemoLedger): DurableAgent {
  setTracingDisabled(true);
  const demo = new DemoTool(config.demo.toolMs, ledger, config.demo.requireApproval);
  const demoStep = tool({
    name: demo.definition.name,
    description: demo.definition.description,
    parameters: z.object({ step: z.number().int().min(1) }),
    needsApproval: demo.requiresApproval,
    execute: (args, runContext, details) => {
      const run = runContext?.context as DurableRunContext | undefined;
      const toolCallId = details?.toolCall?.callId ?? '';
      return demo.execute(args, {
        threadId: run?.threadId ?? '',
        runId: run?.runId ?? '',
        toolCallId,
        ...(toolFence(details) ?? toolFenceOf(run?.threadId ?? '', toolCallId, 0)),
        signal: details?.signal ?? new AbortController().signal,
      });
    },
  });
  const agent = new Agent<DurableRunContext>({
    name: 'demo agent',
    instructions: config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    model: modelOf(config),
    modelSettings:
      config.openai?.temperature !== undefined ? { temperature: config.openai.temperature } : {},
    tools: [demoStep],
  });
  return openAiAgent(agent, {
    runner: new Runner({ tracingDisabled: true }),
    toolTraits: {
      [demo.definition.name]: {
        idempotent: demo.idempotent,
        expectedDurationMs: demo.expectedDurationMs,
      },
    },
    maxTurns: config.modelProvider === 'openai' ? 25 : config.demo.steps + 5,
    expectedReasoningMs: config.openai?.expectedDurationMs ?? config.demo.reasoningMs,
  });
}

function modelOf(config: AppConfig): Model {
  if (config.modelProvider === 'openai' && config.openai) {
    const { baseUrl, apiKey, maxRetries, timeoutMs, model } = config.openai;
    return new OpenAIChatCompletionsModel(
      new OpenAI({ baseURL: baseUrl, apiKey: apiKey ?? 'unset', maxRetries, timeout: timeoutMs }),
      model,
    );
  }
  return new DemoAgentsModel({ steps: config.demo.steps, reasoningMs: config.demo.reasoningMs });
}
