import type { DurableAgent } from 'nest-agent-graceful-shutdown';
import type { AppConfig } from '../config/app-config';

/** The reference agent written with this framework (AGENT_FRAMEWORK=ai-sdk). */
export function aiSdkServiceAgent(config: AppConfig): DurableAgent {
  throw new Error(`AGENT_FRAMEWORK=ai-sdk is not available yet (model provider ${config.modelProvider})`);
}
