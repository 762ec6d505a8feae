import type {
  AgentHook,
  HookDecision,
  PreActingEvent,
  PreReasoningEvent,
  RunEndEvent,
  RunStartEvent,
} from '../agent/agent-hook.interface.js';
import type { AgentRelease } from '../agent/agent-release.js';
import type { RunControl } from '../agent/run-control.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import { StopReason } from '../agent/stop-reason.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import type { LeaseKeeper } from '../leases/lease-keeper.service.js';
import type { SignalBus, Unsubscribe } from '../contracts/signal-bus.interface.js';
import type { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import { DEFAULT_STEP_DURATION_MS } from '../options/default-step-duration.js';
import type { ShutdownCoordinator } from './shutdown-coordinator.service.js';

/** Makes a run's end durable: its record, its thread's status and its interrupt marker. */
export interface RunFinalizer {
  /** `onSaved` is called once the end is written (or refused): the lease needs no renewal from then on. */
  finalize(
    outcome: RunOutcome,
    interrupt: InterruptedState | null,
    onSaved?: () => void,
  ): Promise<void>;
}

/** What the hook works with. */
export interface GracefulShutdownHookDeps {
  registry: InFlightRunRegistry;
  coordinator: ShutdownCoordinator;
  signals: SignalBus;
  finalizer: RunFinalizer;
  /** Expected duration of a step whose model or tool does not declare one, in milliseconds. @default 5000 */
  defaultStepDurationMs?: number;
  /** The release of the agent that runs it: saved in its interrupt marker. @default none */
  agentRelease?: AgentRelease;
  /** The run's lease on its thread, renewed while it runs; a lost lease stops the run. */
  lease?: { keeper: Pick<LeaseKeeper, 'hold'>; runKey: string };
}

/**
 * Installed by the module into every run. It registers the run as in flight, keeps its
 * lease alive, turns a shutdown, a user's cancel or a lost lease into a stop at the next
 * pre-reasoning or pre-acting point (the call in progress is aborted through the run's
 * signal), saves a stopped run with its `InterruptedState`, and unregisters the run only
 * once that is durable.
 */
export class GracefulShutdownHook implements AgentHook {
  private control?: RunControl;
  private unregister?: (stopReason?: StopReason) => void;
  private unsubscribe?: Unsubscribe;
  private releaseLease?: () => void;

  constructor(private readonly deps: GracefulShutdownHookDeps) {}

  onRunStart(event: RunStartEvent): void {
    const { control, threadId, runId } = event;
    this.control = control;
    this.unregister = this.deps.registry.register({ threadId, runId, control });
    this.unsubscribe = this.deps.signals.onCancel(threadId, runId, (signal) =>
      control.requestStop(
        StopReason.Canceled,
        signal?.replacedBy ? 'replaced' : 'user',
        undefined,
        signal?.requestedAt,
        signal?.replacedBy,
      ),
    );
    const lease = this.deps.lease;
    this.releaseLease = lease?.keeper.hold(lease.runKey, threadId, () =>
      control.requestStop(
        StopReason.Failed,
        'lease lost',
        new LeaseLostError(threadId, lease.runKey),
      ),
    );
    if (this.deps.coordinator.isInterrupting)
      control.requestStop(StopReason.Interrupted, 'shutdown');
  }

  preReasoning(event: PreReasoningEvent): HookDecision {
    return this.stopDecision() ?? this.deadlineDecision(event.expectedDurationMs, 'model call');
  }

  preActing(event: PreActingEvent): HookDecision {
    return (
      this.stopDecision() ??
      this.deadlineDecision(event.expectedDurationMs, `tool call ${event.toolCall.name}`)
    );
  }

  async onRunEnd(event: RunEndEvent): Promise<void> {
    try {
      // The saved end released the lease in the store: a renewal from here on would report it
      // lost while the run's stream is still ending.
      await this.deps.finalizer.finalize(event.outcome, this.markerFor(event), () =>
        this.releaseLease?.(),
      );
    } finally {
      this.releaseLease?.();
      this.unsubscribe?.();
      this.unregister?.(event.outcome.stopReason);
    }
  }

  private stopDecision(): HookDecision {
    const request = this.control?.stopRequest;
    return request ? { stop: request.reason, detail: request.detail } : undefined;
  }

  /**
   * During a drain, a step expected to outlast it is not started: the run is interrupted here,
   * at a safe point, rather than cut off in the middle of the step when the drain ends.
   */
  private deadlineDecision(expectedDurationMs: number | undefined, step: string): HookDecision {
    const left = this.deps.coordinator.drainTimeLeftMs;
    const expected =
      expectedDurationMs ?? this.deps.defaultStepDurationMs ?? DEFAULT_STEP_DURATION_MS;
    if (left === undefined || expected <= left) return undefined;
    return {
      stop: StopReason.Interrupted,
      detail: `shutdown: the ${step} (about ${expected} ms) would outlast the drain (${left} ms left)`,
    };
  }

  private markerFor({ runId, outcome }: RunEndEvent): InterruptedState | null {
    if (
      outcome.stopReason !== StopReason.Interrupted &&
      outcome.stopReason !== StopReason.AwaitingApproval
    )
      return null;
    return {
      reason: outcome.stopReason === StopReason.AwaitingApproval ? 'approval' : 'shutdown',
      interruptedAt: new Date().toISOString(),
      runId,
      phase: outcome.phase,
      iteration: outcome.iteration,
      pendingToolCalls: outcome.pendingToolCalls,
      ...(this.deps.agentRelease
        ? {
            agentVersion: this.deps.agentRelease.version,
            agentFingerprint: this.deps.agentRelease.fingerprint,
          }
        : {}),
    };
  }
}
