import { RunState } from '@openai/agents';
import type { AgentMessage } from '../agent/agent-message.js';
import { outlineOfItems, outlineOfMessages } from './run-items.js';
import type { SdkAgent, SdkRunState } from './sdk-types.js';

/** What the adapter keeps on the thread with `handle.saveState`: the SDK's serialised `RunState`, tagged. */
export interface SavedRunState {
  format: 'openai-agents/run-state';
  /** `RunState.toString()`. */
  runState: string;
}

/** The state to keep, or null when it cannot be serialised (a context that is not JSON). */
export function savedRunState(state: SdkRunState): SavedRunState | null {
  try {
    return { format: 'openai-agents/run-state', runState: state.toString() };
  } catch {
    return null;
  }
}

/**
 * The saved state, when it can carry on this run: ours, readable with this agent (graph), and
 * telling the same conversation as the stored history (`history`, the stored messages this run
 * started from). Any other state is ignored and the run continues from the stored messages.
 */
export async function usableRunState<TAgent extends SdkAgent>(
  saved: unknown,
  agent: TAgent,
  history: readonly AgentMessage[],
): Promise<RunState<unknown, TAgent> | undefined> {
  const tagged = saved as Partial<SavedRunState> | null | undefined;
  if (tagged?.format !== 'openai-agents/run-state' || typeof tagged.runState !== 'string')
    return undefined;
  let state: RunState<unknown, TAgent>;
  try {
    state = await RunState.fromString(agent, tagged.runState);
  } catch {
    return undefined;
  }
  const own = outlineOfItems(state.history);
  const stored = conversationBefore(
    outlineOfMessages(history),
    state.getInterruptions().map((item) => `call:${callIdOf(item.rawItem)}`),
  );
  return own.length === stored.length && own.every((token, i) => token === stored[i])
    ? state
    : undefined;
}

/**
 * The stored outline as a state paused for approval holds it: its history ends before the paused
 * turn (the assistant message carrying the paused calls, and what followed it).
 */
function conversationBefore(outline: string[], pausedCalls: string[]): string[] {
  let end = pausedCalls.length
    ? outline.findIndex((token) => pausedCalls.includes(token))
    : outline.length;
  if (end < 0) return ['paused call not stored'];
  while (end > 0 && outline[end - 1].startsWith('call:')) end--;
  if (pausedCalls.length && outline[end - 1] === 'assistant') end--;
  return outline.slice(0, end);
}

/** The call id of an approval item's raw call. */
export function callIdOf(raw: unknown): string {
  const item = raw as { callId?: string; id?: string };
  return item.callId ?? item.id ?? '';
}
