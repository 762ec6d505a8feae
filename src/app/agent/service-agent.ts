import type { AgentDefinition } from 'nest-agent-graceful-shutdown';
import type { DurableAgent } from 'nest-agent-graceful-shutdown/store';
import { OpenAiChatModel } from 'nest-agent-graceful-shutdown/openai';
import type { AppConfig } from '../config/app-config';
import type { DemoLedger } from '../demo/demo-ledger';
import { DemoModel } from '../demo/demo-model';
import { DemoTool } from '../demo/demo-tool';
import { aiSdkServiceAgent } from './ai-sdk.agent';
import { langGraphServiceAgent } from './langgraph.agent';
import { openAiAgentsServiceAgent } from './openai-agents.agent';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt';

/**
 * The agent the reference service runs, written with the framework `AGENT_FRAMEWORK` names: the
 * demo tool with the demo model (offline, deterministic) or, with `MODEL_PROVIDER=openai`, any
 * OpenAI-compatible model through the Chat Completions API. The demo tool records its effects in `ledger`.
 */
export function serviceAgent(
  config: AppConfig,
  ledger: DemoLedger,
): AgentDefinition | DurableAgent {
  switch (config.agentFramework) {
    case 'ai-sdk':
      return aiSdkServiceAgent(config, ledger);
    case 'langgraph':
      return langGraphServiceAgent(config, ledger);
    case 'openai-agents':
      return openAiAgentsServiceAgent(config, ledger);
    default:
      return nativeServiceAgent(config, ledger);
  }
}

/** The agent on the module's own ReAct runtime. */
function nativeServiceAgent(config: AppConfig, ledger: DemoLedger): AgentDefinition {
  const tools = [new DemoTool(config.demo.toolMs, ledger, config.demo.requireApproval)];
  const systemPrompt = config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  if (config.modelProvider === 'openai' && config.openai) {
    return { model: new OpenAiChatModel(config.openai), tools, systemPrompt, maxIterations: 25 };
  }
  return {
    model: new DemoModel({ steps: config.demo.steps, reasoningMs: config.demo.reasoningMs }),
    tools,
    systemPrompt,
    maxIterations: config.demo.steps + 5,
  };
}
