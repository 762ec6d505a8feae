import type { AgentHook, HookDecision, RunEndEvent, RunStartEvent } from '../agent/agent-hook.interface';
import type { RunControl } from '../agent/run-control';
import type { RunOutcome } from '../agent/run-outcome';
import { StopReason } from '../agent/stop-reason';
import { LeaseLostError } from '../errors/lease-lost.error';
import type { LeaseKeeper } from '../leases/lease-keeper.service';
import type { SignalBus, Unsubscribe } from '../signals/signal-bus.interface';
import type { InFlightRunRegistry } from './in-flight-run.registry';
import type { InterruptedState } from './interrupted-state';
import type { ShutdownCoordinator } from './shutdown-coordinator.service';

/** Makes a run's end durable: its record, its thread's status and its interrupt marker. */
export interface RunFinalizer {
  finalize(outcome: RunOutcome, interrupt: InterruptedState | null): Promise<void>;
}

/** What the hook works with. */
export interface GracefulShutdownHookDeps {
  registry: InFlightRunRegistry;
  coordinator: ShutdownCoordinator;
  signals: SignalBus;
  finalizer: RunFinalizer;
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
  private unregister?: () => void;
  private unsubscribe?: Unsubscribe;
  private releaseLease?: () => void;

  constructor(private readonly deps: GracefulShutdownHookDeps) {}

  onRunStart(event: RunStartEvent): void {
    const { control, threadId, runId } = event;
    this.control = control;
    this.unregister = this.deps.registry.register({ threadId, runId, control });
    this.unsubscribe = this.deps.signals.onCancel(threadId, runId, () => control.requestStop(StopReason.Canceled, 'user'));
    const lease = this.deps.lease;
    this.releaseLease = lease?.keeper.hold(lease.runKey, threadId, () =>
      control.requestStop(StopReason.Failed, 'lease lost', new LeaseLostError(threadId, lease.runKey)),
    );
    if (this.deps.coordinator.isInterrupting) control.requestStop(StopReason.Interrupted, 'shutdown');
  }

  preReasoning(): HookDecision {
    return this.stopDecision();
  }

  preActing(): HookDecision {
    return this.stopDecision();
  }

  async onRunEnd(event: RunEndEvent): Promise<void> {
    try {
      await this.deps.finalizer.finalize(event.outcome, this.markerFor(event));
    } finally {
      this.releaseLease?.();
      this.unsubscribe?.();
      this.unregister?.();
    }
  }

  private stopDecision(): HookDecision {
    const request = this.control?.stopRequest;
    return request ? { stop: request.reason, detail: request.detail } : undefined;
  }

  private markerFor({ runId, outcome }: RunEndEvent): InterruptedState | null {
    if (outcome.stopReason !== StopReason.Interrupted) return null;
    return {
      reason: 'shutdown',
      interruptedAt: new Date().toISOString(),
      runId,
      phase: outcome.phase,
      iteration: outcome.iteration,
      pendingToolCalls: outcome.pendingToolCalls,
    };
  }
}
