import type { AgentDefinition } from '../../lib';
import type { AppConfig } from '../config/app-config';
import { DemoModel } from './demo-model';
import { DemoTool } from './demo-tool';

/** The agent the reference service runs: the demo model with the demo tool. */
export function demoAgent(config: AppConfig): AgentDefinition {
  return {
    model: new DemoModel({ steps: config.demo.steps, reasoningMs: config.demo.reasoningMs }),
    tools: [new DemoTool(config.demo.toolMs)],
    systemPrompt: 'You are a demo agent. Do each numbered step with the demo_step tool, then report.',
    maxIterations: config.demo.steps + 5,
  };
}
