import type { AgentDefinition } from '../agent/agent-definition.js';
import { AgentRuntime } from './agent-runtime.js';
import type { DurableAgent } from '../handle/run-handle.interface.js';

/** True for an agent that drives a run handle itself (a framework adapter, or a hand-written loop). */
export function isDurableAgent(agent: AgentDefinition | DurableAgent): agent is DurableAgent {
  return (
    typeof (agent as DurableAgent).run === 'function' &&
    typeof (agent as DurableAgent).toolTraits === 'function'
  );
}

/** The agent as the module runs it: a native definition runs on the module's own ReAct runtime. */
export function toDurableAgent(agent: AgentDefinition | DurableAgent): DurableAgent {
  return isDurableAgent(agent) ? agent : new AgentRuntime(agent);
}
