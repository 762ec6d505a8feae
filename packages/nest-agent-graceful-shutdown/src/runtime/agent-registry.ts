import { Injectable } from '@nestjs/common';
import type { AgentDefinition } from '../agent/agent-definition.js';
import { toDurableAgent } from './durable-agent.js';
import type { DurableAgent } from '../handle/run-handle.interface.js';

/** An agent as `AgentRunService.start` takes it: a definition, a durable agent, or a registered name. */
export type AgentRef = AgentDefinition | DurableAgent | string;

/** The name an agent started without one is registered under, when that name is free. */
export const DEFAULT_AGENT_NAME = 'default';

/**
 * The agents this instance can run, by name. Each run records its agent's name, so any
 * instance can continue it on its own (resume mode `auto`): register every agent under the
 * same name on every instance, at boot. An agent passed to `start` unregistered takes the
 * name `default` while it is free, which is all a one-agent service needs.
 *
 * @example
 * // in a provider's onModuleInit
 * registry.register('researcher', langGraphAgent(graph, { name: 'researcher' }));
 * await runs.start(userId, input, 'researcher');
 */
@Injectable()
export class AgentRegistry {
  private readonly byName = new Map<string, DurableAgent>();
  private readonly names = new Map<AgentDefinition | DurableAgent, string>();

  /** Registers `agent` under `name`; throws when the name is taken by another agent. */
  register(name: string, agent: AgentDefinition | DurableAgent): void {
    const known = this.names.get(agent);
    if (known === name) return;
    if (this.byName.has(name))
      throw new Error(`an agent is already registered as "${name}": give each agent its own name`);
    if (known !== undefined) throw new Error(`this agent is already registered as "${known}"`);
    this.byName.set(name, toDurableAgent(agent));
    this.names.set(agent, name);
  }

  /** The agent registered as `name`. */
  get(name: string): DurableAgent | undefined {
    return this.byName.get(name);
  }

  /**
   * The agent to run and the name to record with the run (null: it cannot be continued by
   * another instance). Throws for a name nobody registered.
   */
  resolve(ref: AgentRef): { agent: DurableAgent; name: string | null } {
    if (typeof ref === 'string') {
      const agent = this.byName.get(ref);
      if (!agent)
        throw new Error(
          `no agent is registered as "${ref}": register it with AgentRegistry.register at boot`,
        );
      return { agent, name: ref };
    }
    if (!this.names.has(ref) && !this.byName.has(DEFAULT_AGENT_NAME))
      this.register(DEFAULT_AGENT_NAME, ref);
    const name = this.names.get(ref) ?? null;
    return { agent: name ? this.byName.get(name)! : toDurableAgent(ref), name };
  }
}
