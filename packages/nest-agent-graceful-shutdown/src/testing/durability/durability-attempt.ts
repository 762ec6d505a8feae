import type { AgentHook } from '../../agent/agent-hook.interface.js';
import type { AgentMessage, ToolCall } from '../../agent/agent-message.js';
import type { AgentRelease, AgentVersionChange } from '../../agent/agent-release.js';
import { RunControl } from '../../agent/run-control.js';
import type { RunOutcome } from '../../agent/run-outcome.js';
import { StopReason } from '../../agent/stop-reason.js';
import type { InterruptedState } from '../../contracts/interrupted-state.js';
import type { SignalBus } from '../../contracts/signal-bus.interface.js';
import { driveRun } from '../../handle/drive-run.js';
import { DurableRunHandle } from '../../handle/durable-run-handle.js';
import type { RunHandleSpec } from '../../handle/run-handle.types.js';
import type { DurableAgent } from '../../handle/run-handle.interface.js';
import { InFlightRunRegistry } from '../../lifecycle/in-flight-run.registry.js';
import { GracefulShutdownHook } from '../../shutdown/graceful-shutdown.hook.js';
import type { ShutdownCoordinator } from '../../shutdown/shutdown-coordinator.service.js';
import type { DurabilityStore } from './durability-store.js';
import type { InterruptionPoint } from './durability-report.js';

/** What one attempt of a run starts from: what earlier attempts left, as the run service hands it over. */
export interface AttemptSpec {
  agent: DurableAgent;
  release: AgentRelease;
  store: DurabilityStore;
  history: readonly AgentMessage[];
  toRun?: readonly ToolCall[];
  prelude: readonly AgentMessage[];
  resumed?: boolean;
  savedState?: unknown;
  versionChange?: AgentVersionChange | null;
  /** Where to interrupt it; none: it runs to its end. */
  interruptAt?: InterruptionPoint;
}

/** The points an attempt passed, in order. */
export interface AttemptTrace {
  preReasoning: number;
  /** The tool of each pre-acting safe point passed. */
  preActing: string[];
  /** The reasoning rounds whose answer streamed at least one delta. */
  streamed: number[];
  /** The tool of each call recorded as started. */
  started: string[];
}

/** How an attempt ended: its outcome, and the marker the shutdown hook saved with it. */
export interface AttemptResult {
  outcome: RunOutcome;
  marker: InterruptedState | null;
  trace: AttemptTrace;
}

/** The module serving, never draining: only the attempt's own interruption stops it. */
const SERVING = {
  isInterrupting: false,
  drainTimeLeftMs: undefined,
} as unknown as ShutdownCoordinator;
const NO_CANCELS = { onCancel: () => () => undefined } as unknown as SignalBus;

/**
 * Runs one attempt of the run on thread `t` through a run handle with the module's own
 * `GracefulShutdownHook`, which saves the interrupt marker (with the agent's release) as it
 * does in a service. At `interruptAt`, the attempt is stopped as a shutdown stops it: a stop
 * requested on the run's control (aborting the model or tool call in progress), which the
 * hook turns into a stop at the next safe point.
 */
export async function runAttempt(spec: AttemptSpec): Promise<AttemptResult> {
  const control = new RunControl();
  const trace: AttemptTrace = { preReasoning: 0, preActing: [], streamed: [], started: [] };
  const at = spec.interruptAt;
  const stopAt = (kind: InterruptionPoint['kind'], index: number) => {
    if (at?.kind === kind && at.index === index)
      control.requestStop(StopReason.Interrupted, `shutdown at ${at.label}`);
  };
  const recorder: AgentHook = {
    preReasoning: () => stopAt('pre-reasoning', ++trace.preReasoning),
    preActing: ({ toolCall }) => stopAt('pre-acting', trace.preActing.push(toolCall.name)),
  };
  let marker: InterruptedState | null = null;
  const shutdownHook = new GracefulShutdownHook({
    registry: new InFlightRunRegistry(),
    coordinator: SERVING,
    signals: NO_CANCELS,
    agentRelease: spec.release,
    finalizer: {
      finalize: async (_outcome, interrupt, onSaved) => {
        marker = interrupt;
        onSaved?.();
      },
    },
  });
  spec.store.onStarted = (call) => stopAt('mid-tool', trace.started.push(call.name));
  const handle = new WatchedRunHandle(
    {
      threadId: 't',
      runId: 'r',
      history: spec.history,
      pendingToolCalls: spec.toRun,
      prelude: spec.prelude,
      resumed: spec.resumed ?? false,
      savedState: spec.savedState,
      versionChange: spec.versionChange ?? null,
      hooks: [recorder, shutdownHook],
      control,
      checkpointer: spec.store,
      emit: () => undefined,
      toolTraits: (name) => spec.agent.toolTraits(name),
    },
    (round) => {
      if (trace.streamed.includes(round)) return;
      trace.streamed.push(round);
      stopAt('mid-stream', round);
    },
  );
  const outcome = await driveRun(spec.agent, handle);
  spec.store.onStarted = undefined;
  return { outcome, marker, trace };
}

/** A run handle that tells of each streamed delta of an answer, with the reasoning round it belongs to. */
class WatchedRunHandle extends DurableRunHandle {
  constructor(
    spec: RunHandleSpec,
    private readonly onDelta: (round: number) => void,
  ) {
    super(spec);
  }

  override startAnswer() {
    const answer = super.startAnswer();
    const round = this.iteration;
    const text = answer.text.bind(answer);
    const start = answer.toolCallStart.bind(answer);
    const args = answer.toolCallArgs.bind(answer);
    answer.text = (delta) => (text(delta), this.onDelta(round));
    answer.toolCallStart = (call) => (start(call), this.onDelta(round));
    answer.toolCallArgs = (id, delta) => (args(id, delta), this.onDelta(round));
    return answer;
  }
}
