import type { DurableAgent } from 'nest-agent-graceful-shutdown';
import type { AppConfig } from '../config/app-config';

/** The reference agent written with this framework (AGENT_FRAMEWORK=openai-agents). */
export function openAiAgentsServiceAgent(config: AppConfig): DurableAgent {
  throw new Error(`AGENT_FRAMEWORK=openai-agents is not available yet (model provider ${config.modelProvider})`);
}
