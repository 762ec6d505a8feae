import type { AgentDefinition } from 'nest-agent-graceful-shutdown';
import { OpenAiChatModel } from 'nest-agent-graceful-shutdown/openai';
import type { AppConfig } from '../config/app-config';
import { DemoModel } from '../demo/demo-model';
import { DemoTool } from '../demo/demo-tool';

const DEFAULT_SYSTEM_PROMPT =
  'You are a careful agent. Do each numbered step of the task with the demo_step tool, one call per step, then report what was done.';

/**
 * The agent the reference service runs: the demo tool with the demo model (offline,
 * deterministic) or, with `MODEL_PROVIDER=openai`, any OpenAI-compatible model.
 */
export function serviceAgent(config: AppConfig): AgentDefinition {
  const tools = [new DemoTool(config.demo.toolMs, config.demo.requireApproval)];
  if (config.modelProvider === 'openai' && config.openai) {
    return {
      model: new OpenAiChatModel(config.openai),
      tools,
      systemPrompt: config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      maxIterations: 25,
    };
  }
  return {
    model: new DemoModel({ steps: config.demo.steps, reasoningMs: config.demo.reasoningMs }),
    tools,
    systemPrompt: config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    maxIterations: config.demo.steps + 5,
  };
}
