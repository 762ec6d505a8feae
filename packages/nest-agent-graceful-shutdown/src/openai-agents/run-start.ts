import { RunContext, RunState, type AgentInputItem } from '@openai/agents';
import type { AgentMessage } from '../agent/agent-message.js';
import type { RunHandle } from '../handle/run-handle.interface.js';
import { toInputItems } from './run-items.js';
import type { SdkAgent } from './sdk-types.js';
import { callIdOf, usableRunState } from './saved-run-state.js';

/** What one run hands the SDK's runner: the agent to start with and its input. */
export type RunStart<TContext> =
  | {
      from: 'approval-state';
      agent: SdkAgent<TContext>;
      input: RunState<TContext, SdkAgent<TContext>>;
    }
  | { from: 'saved-state' | 'messages'; agent: SdkAgent<TContext>; input: AgentInputItem[] };

/**
 * Where a run continues from, once `handle.prepare` ran. With a usable saved `RunState`: at an
 * approval pause (and nothing new to add), the SDK's own state with each paused call approved or
 * rejected as the human answered; after a stop before reasoning, the state's history (the SDK's
 * own items, its current agent after handoffs) followed by what this run adds (the resume
 * message, new user messages). Otherwise, the stored messages.
 */
export async function runStart<TContext>(
  handle: RunHandle,
  stored: readonly AgentMessage[],
  entry: SdkAgent<TContext>,
  durable: (agent: SdkAgent<TContext>) => Promise<SdkAgent<TContext>>,
  context: TContext,
): Promise<RunStart<TContext>> {
  const saved = await usableRunState(handle.savedState, entry, stored);
  if (saved && saved.getInterruptions().length > 0 && handle.prelude.length === 0) {
    const state = await RunState.fromStringWithContext(
      entry,
      saved.toString(),
      new RunContext(context),
    );
    const approved = new Set(handle.pendingToolCalls.map((call) => call.id));
    for (const item of state.getInterruptions()) {
      const callId = callIdOf(item.rawItem);
      if (approved.has(callId)) state.approve(item);
      else state.reject(item, { message: handle.toolResult(callId)?.content });
    }
    return { from: 'approval-state', agent: entry, input: state };
  }
  const added = toInputItems(handle.messages).slice(toInputItems(stored).length);
  if (saved && saved.getInterruptions().length === 0) {
    const current = saved.currentAgent === entry ? entry : await durable(saved.currentAgent);
    return { from: 'saved-state', agent: current, input: [...saved.history, ...added] };
  }
  return { from: 'messages', agent: entry, input: toInputItems(handle.messages) };
}
