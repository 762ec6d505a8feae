import type { RolledBackRun, SessionStore } from '../contracts/session-store.interface.js';
import type { AgentHook } from '../agent/agent-hook.interface.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { AgentRelease, AgentVersionChange, NotRunCall } from '../agent/agent-release.js';
import type { PartialOutputPolicy } from '../handle/run-handle.types.js';
import type { DurableAgent } from '../handle/run-handle.interface.js';
import type { LeaseKeeper } from '../leases/lease-keeper.service.js';
import type { GracefulShutdownHookDeps } from '../shutdown/graceful-shutdown.hook.js';
import type { SignalBus } from '../contracts/signal-bus.interface.js';
import type { RunEventChannel } from '../streams/run-event-channel.js';
import type { RunTelemetry } from '../telemetry/run-telemetry.js';

/** Everything an admitted run needs to execute. */
export interface AgentRunSpec {
  threadId: string;
  runId: string;
  runKey: string;
  /** The attempt's fencing token, from the store's `startRun`: given to every tool call. */
  fencingToken: number;
  agent: DurableAgent;
  history: readonly AgentMessage[];
  toRun: readonly ToolCall[];
  /** Calls a human approved: they run without pausing again. */
  approvedToolCallIds: ReadonlySet<string>;
  prelude: readonly AgentMessage[];
  /** True when `prelude` was stored with the run's start. */
  preludeStored: boolean;
  /** True when the run continues an interrupted one. */
  resumed: boolean;
  /** The agent framework's state an earlier run of the thread saved (or the version policy's migration of it). */
  savedState: unknown;
  /** The release of the agent that runs this attempt, the change it crosses, and the pending calls it does not run. */
  release: {
    agent: AgentRelease;
    change: AgentVersionChange | null;
    /** What the version policy decided for the change; null without one. */
    decision: 'adapt' | 'skip-pending' | 'migrated' | null;
    notRun: readonly NotRunCall[];
  };
  hooks: readonly AgentHook[];
  store: SessionStore;
  signals: SignalBus;
  shutdown: Omit<GracefulShutdownHookDeps, 'finalizer' | 'signals' | 'lease'>;
  leases: LeaseKeeper;
  partialOutput: PartialOutputPolicy;
  defaultStepDurationMs: number;
  /** Idle time of an event stream before a heartbeat comment, in milliseconds; 0: none. */
  sseHeartbeatMs: number;
  /** The run's events on their way to its log and connections. */
  channel: RunEventChannel;
  streams: {
    /** How long the log stays joinable after the attempt ends, in milliseconds. */
    retentionMs: number;
    /** `auto`: a run stopped by a shutdown is handed over instead of ending with `RUN_INTERRUPTED`. */
    resumeMode: 'client' | 'auto';
    /** `cancel`: a client that goes away stops its run, as a user's cancel. */
    onDisconnect: 'continue' | 'cancel';
  };
  /** True when an instance continues the run on its own: the log's `RUN_STARTED` is already there. */
  continuation: boolean;
  /** What this run's request rolled back (multitask `rollback`): announced after `RUN_STARTED`. */
  rolledBack?: RolledBackRun;
  /** The attempt's traces and metrics. */
  telemetry: RunTelemetry;
}
