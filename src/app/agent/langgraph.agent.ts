import type { DurableAgent } from 'nest-agent-graceful-shutdown';
import type { AppConfig } from '../config/app-config';

/** The reference agent written with this framework (AGENT_FRAMEWORK=langgraph). */
export function langGraphServiceAgent(config: AppConfig): DurableAgent {
  throw new Error(`AGENT_FRAMEWORK=langgraph is not available yet (model provider ${config.modelProvider})`);
}
