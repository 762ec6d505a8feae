// The `/store` entry: what someone who writes a session store, a signal bus, a run event log, a
// step checkpointer, a thread access policy or an agent loop of their own needs, and the default
// implementations and schema of each; also `sharedTransaction`, for writes of a tool's own in the
// run's transaction. A service that only uses the module imports the root entry. The contract suites these
// implementations must pass are in `/testing`.
export { SESSION_STORE, RUN_EVENT_LOG, SIGNAL_BUS, THREAD_ACCESS_POLICY } from '../tokens/graceful-shutdown.tokens';

export {
  ThreadBusyError,
  type CheckpointTarget,
  type FinishRunCommand,
  type SessionStore,
  type StartedRun,
  type StartRunCommand,
} from '../contracts/session-store.interface';
export type { RunRecord, RunStatus, StoredMessage, ThreadRecord, ThreadStatus, ToolCallRecord } from '../contracts/session-records';
export type { ThreadListPage, ThreadListPosition, ThreadListQuery, ThreadSummary } from '../contracts/thread-list';
export type { StepCheckpointer, StepProgress } from '../contracts/step-checkpointer.interface';
export type { StepCommit } from '../contracts/step-commit';
export type { LoggedEvent, RunEventLog, RunLogKey, RunLogListener } from '../contracts/run-event-log.interface';
export type { CancelSignal, RunEndedSignal, SignalBus, SignalBusHealth, Unsubscribe } from '../contracts/signal-bus.interface';
export type { SavedTraceContext } from '../contracts/interrupted-state';
export { EventLogFencedError, NewerRecordFormatError } from '../errors';

export { SESSION_ENTITIES, SESSION_MIGRATIONS, SESSION_TYPEORM_OPTIONS } from '../session/session-schema';
export { runSessionMigrations } from '../session/run-session-migrations';
export { TypeOrmSessionStore, type TypeOrmSessionStoreOptions } from '../session/typeorm-session.store';
export { TypeOrmRunEventLog } from '../session/typeorm-run-event-log';
export { InMemoryRunEventLog } from '../streams/in-memory-run-event-log';
export { InProcessSignalBus } from '../signals/in-process-signal-bus';
export { PostgresSignalBus, type PostgresSignalBusOptions } from '../session/postgres-signal-bus';
export type { ReconnectBackoff } from '../session/postgres-listen-connection';
export type { LogAppendedSignal } from '../session/postgres-signal-wire';
export type { LogNudges } from '../session/log-nudges';
export { CreatorOwnsThread, type ThreadAccessPolicy } from '../threads/thread-access.policy';

export type { AnswerStream, RunHandle, SafePoint, ToolCallResult, ToolTraits } from '../handle/run-handle.interface';
export type { RunControl, StopRequest } from '../agent/run-control';
export type { RunEventSink } from '../agent/run-events';
export type { PendingToolCall, RunOutcome } from '../agent/run-outcome';
export { OUTCOME_UNKNOWN_RESULT } from '../resume/resume-message';

export type { DurableAgent } from '../handle/run-handle.interface';
export { idempotencyKeyOf, toolFenceOf, type ToolFence } from '../agent/tool-fence';
export { defaultResumeMessage } from '../resume/resume-message';
export { sharedTransaction } from '../session/shared-transaction';
export type { SeamProvider, GracefulShutdownModuleExtras } from '../graceful-shutdown.module-definition';
