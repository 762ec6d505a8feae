import type { ToolCall } from '../agent/agent-message.js';
import type { NotRunCall, ToolInputCheck } from '../agent/agent-release.js';

/** What the screen asks of the agent that would run the calls. */
export interface CallScreenAgent {
  /** True when the agent has a tool of this name. */
  hasTool(name: string): boolean;
  /** The framework's own input check of the tool. @default every input passes */
  checkToolInput?(call: ToolCall): Promise<ToolInputCheck>;
}

/** The releases a resume crosses, named in the results of the calls it does not run. */
export interface CallScreenReleases {
  /** The version that asked for the calls. */
  from: string;
  /** The version asked to run them. */
  to: string;
  /** True when the version-change policy runs none of them (`skip-pending`). */
  skipAll?: boolean;
}

/**
 * The calls a resume must not run, by call id: a call whose tool the agent no longer has, a
 * call whose arguments the tool's current input check refuses, or (policy `skip-pending`) every
 * call. Each is answered with a tool result that says why, so the model can go on.
 */
export async function screenPendingCalls(
  calls: readonly ToolCall[],
  agent: CallScreenAgent,
  releases: CallScreenReleases,
): Promise<Map<string, NotRunCall>> {
  const notRun = new Map<string, NotRunCall>();
  for (const call of calls) {
    const refusal = await refusalOf(call, agent, releases);
    if (refusal) notRun.set(call.id, refusal);
  }
  return notRun;
}

async function refusalOf(
  call: ToolCall,
  agent: CallScreenAgent,
  { from, to, skipAll }: CallScreenReleases,
): Promise<NotRunCall | null> {
  if (skipAll) {
    const result = `not run: this call was asked for by release ${from} of the agent, and release ${to} does not run such calls on resume. Ask again if it is still needed.`;
    return { call, reason: 'policy', result };
  }
  if (!agent.hasTool(call.name)) {
    return {
      call,
      reason: 'tool_removed',
      result: `not run: the tool "${call.name}" no longer exists in release ${to} of the agent.`,
    };
  }
  const check = agent.checkToolInput ? await agent.checkToolInput(call) : ({ ok: true } as const);
  if (check.ok) return null;
  const result = `not run: the arguments of this call do not fit the tool "${call.name}" in release ${to} of the agent: ${check.error}`;
  return { call, reason: 'invalid_arguments', result };
}
