import type { ReconnectKind } from 'nest-agent-graceful-shutdown/client';

/** A thread's status word, as the service spells it. */
export type ThreadStatus = 'idle' | 'running' | 'interrupted' | 'awaiting_approval';

/** One tool call of the run: asked for by a reasoning step, answered by an acting step. */
export interface ToolCallView {
  id: string;
  name: string;
  args: string;
  result?: string;
}

/** One step of the run, as it streams. */
export interface StepView {
  kind: string;
  done: boolean;
  /** Ids of the tool calls the step asked for (reasoning) or ran (acting). */
  toolCallIds: string[];
  /** Text the model wrote in this step (the answer). */
  text: string;
  /** True when a server shutdown cut the step before it produced anything (it is done again after the resume). */
  cut?: boolean;
}

/** An approval the run paused for (AG-UI interrupt). */
export interface PendingApproval {
  id: string;
  toolCallId: string;
  message: string;
}

/** What the page shows of the current run. */
export interface RunView {
  /** True from the run's start until its stream ends. */
  active: boolean;
  steps: StepView[];
  toolCalls: Record<string, ToolCallView>;
  approvals: PendingApproval[];
  /** The thread's status as this run's events tell it; undefined: ask the service. */
  status?: ThreadStatus;
  /** Connection notices of this run, oldest first; repeated attempts of one kind update one notice. */
  notices: Array<{ kind: ReconnectKind | 'resumed'; text: string }>;
  /** True while the connection is lost (a notice was given and no event came since). */
  reconnecting: boolean;
  /** How the run ended, in words. */
  outcome?: string;
  error?: string;
}

/** Everything that changes the run's view. */
export type RunAction =
  | { type: 'start' }
  | { type: 'event'; event: { type: string; [field: string]: unknown } }
  | { type: 'reconnect'; kind: ReconnectKind; attempt: number }
  | { type: 'failed'; message: string }
  | { type: 'ended' }
  | { type: 'settled' }
  | { type: 'clear' };

export const EMPTY_RUN: RunView = {
  active: false,
  steps: [],
  toolCalls: {},
  approvals: [],
  notices: [],
  reconnecting: false,
};

const NOTICES: Record<ReconnectKind, string> = {
  interrupted: 'Run interrupted by a server shutdown: resuming it…',
  dropped: 'Connection lost: reconnecting…',
  handover: 'Run handed over to another server instance: following it there…',
  resend: 'The server is not ready: sending the run again…',
};

type Notice = RunView['notices'][number];

/** Adds `notice`, or replaces the last one when it is of the same kind (a later attempt). */
const withNotice = (notices: Notice[], notice: Notice) =>
  [...(notices.at(-1)?.kind === notice.kind ? notices.slice(0, -1) : notices), notice].slice(-6);

/** The run's view after `action` (a pure reducer for `useReducer`). */
export function runReducer(view: RunView, action: RunAction): RunView {
  switch (action.type) {
    case 'start':
      return { ...EMPTY_RUN, active: true, status: 'running' };
    case 'reconnect': {
      const text = `${NOTICES[action.kind]}${action.attempt > 1 ? ` (attempt ${action.attempt})` : ''}`;
      const interrupted = action.kind === 'interrupted';
      const steps = interrupted
        ? updateLast(view.steps, (step) =>
            step.toolCallIds.length || step.text ? step : { ...step, cut: true },
          )
        : view.steps;
      const status = interrupted ? 'interrupted' : view.status;
      return {
        ...view,
        steps,
        status,
        reconnecting: true,
        notices: withNotice(view.notices, { kind: action.kind, text }),
      };
    }
    case 'event': {
      const notice = { kind: 'resumed' as const, text: 'Reconnected: the run goes on.' };
      const resumed = view.reconnecting
        ? { reconnecting: false, notices: withNotice(view.notices, notice) }
        : {};
      return applyEvent({ ...view, ...resumed }, action.event);
    }
    case 'failed':
      return {
        ...view,
        active: false,
        reconnecting: false,
        status: undefined,
        error: action.message,
      };
    case 'ended':
      return { ...view, active: false, reconnecting: false };
    case 'settled': // the service's own word on the thread came in: it wins once the run is over
      return view.active ? view : { ...view, status: undefined };
    case 'clear':
      return EMPTY_RUN;
  }
}

function applyEvent(view: RunView, event: { type: string; [field: string]: unknown }): RunView {
  const text = (field: string) => String(event[field] ?? '');
  switch (event.type) {
    case 'RUN_STARTED':
      return { ...view, status: 'running' };
    case 'STEP_STARTED':
      return {
        ...view,
        status: 'running',
        steps: [...view.steps, { kind: text('stepName'), done: false, toolCallIds: [], text: '' }],
      };
    case 'STEP_FINISHED':
      return { ...view, steps: updateLast(view.steps, (step) => ({ ...step, done: true })) };
    case 'TEXT_MESSAGE_CONTENT':
      return {
        ...view,
        steps: updateLast(view.steps, (step) => ({ ...step, text: step.text + text('delta') })),
      };
    case 'TOOL_CALL_START': {
      const call = { id: text('toolCallId'), name: text('toolCallName'), args: '' };
      return {
        ...view,
        toolCalls: { ...view.toolCalls, [call.id]: call },
        steps: withCall(view.steps, call.id),
      };
    }
    case 'TOOL_CALL_ARGS':
      return updateCall(view, text('toolCallId'), (call) => ({
        ...call,
        args: call.args + text('delta'),
      }));
    case 'TOOL_CALL_RESULT':
      return {
        ...updateCall(view, text('toolCallId'), (call) => ({ ...call, result: text('content') })),
        steps: withCall(view.steps, text('toolCallId')),
      };
    case 'RUN_FINISHED':
      return finished(
        view,
        event.outcome as { type?: string; interrupts?: PendingApproval[] } | undefined,
      );
    case 'RUN_ERROR':
      if (event.code === 'RUN_CANCELED')
        return { ...view, status: 'idle', outcome: 'Stopped: the run was canceled.' };
      // Another page sent a message while this run went (multitask interrupt): it stopped, keeping its work.
      if (event.code === 'RUN_REPLACED')
        return { ...view, status: 'idle', outcome: 'Stopped: a newer message replaced the run.' };
      return {
        ...view,
        status: undefined,
        outcome: `Failed: ${text('message')} (${text('code')})`,
      };
    default:
      return view;
  }
}

function finished(
  view: RunView,
  outcome: { type?: string; interrupts?: PendingApproval[] } | undefined,
): RunView {
  if (outcome?.type !== 'interrupt')
    return { ...view, status: 'idle', approvals: [], outcome: 'Finished.' };
  const approvals = (outcome.interrupts ?? []).map(({ id, toolCallId, message }) => ({
    id,
    toolCallId,
    message,
  }));
  return {
    ...view,
    status: 'awaiting_approval',
    approvals,
    outcome: 'Waiting for your approval of a tool call.',
  };
}

function updateLast(steps: StepView[], change: (step: StepView) => StepView): StepView[] {
  return steps.length ? [...steps.slice(0, -1), change(steps[steps.length - 1])] : steps;
}

function withCall(steps: StepView[], toolCallId: string): StepView[] {
  return updateLast(steps, (step) =>
    step.toolCallIds.includes(toolCallId)
      ? step
      : { ...step, toolCallIds: [...step.toolCallIds, toolCallId] },
  );
}

function updateCall(
  view: RunView,
  id: string,
  change: (call: ToolCallView) => ToolCallView,
): RunView {
  const call = view.toolCalls[id] ?? { id, name: 'tool', args: '' };
  return { ...view, toolCalls: { ...view.toolCalls, [id]: change(call) } };
}
