// The `/store` entry: what someone who writes a session store, a signal bus, a run event log, a
// step checkpointer, a thread access policy or an agent loop of their own needs, and the default
// implementations and schema of each; also `sharedTransaction`, for writes of a tool's own in the
// run's transaction. A service that only uses the module imports the root entry. The contract suites these
// implementations must pass are in `/testing`.
export {
  SESSION_STORE,
  RUN_EVENT_LOG,
  SIGNAL_BUS,
  THREAD_ACCESS_POLICY,
} from '../tokens/graceful-shutdown.tokens.js';

export {
  ThreadBusyError,
  type CheckpointTarget,
  type CancelApprovalCommand,
  type FinishRunCommand,
  type RollbackRunCommand,
  type EnqueueRunCommand,
  type QueuedRun,
  type QueuedRunInput,
  type RolledBackRun,
  type SessionStore,
  type StartedRun,
  type StartRunCommand,
} from '../contracts/session-store.interface.js';
export type {
  RunRecord,
  RunStatus,
  StoredMessage,
  ThreadRecord,
  ThreadStatus,
  ToolCallRecord,
} from '../contracts/session-records.js';
export type {
  ThreadListPage,
  ThreadListPosition,
  ThreadListQuery,
  ThreadSummary,
} from '../contracts/thread-list.js';
export type { MessagePage, MessagePageQuery } from '../contracts/message-page.js';
export type { StepCheckpointer, StepProgress } from '../contracts/step-checkpointer.interface.js';
export type { StepCommit } from '../contracts/step-commit.js';
export type {
  LoggedEvent,
  RunEventLog,
  RunLogAppendOptions,
  RunLogKey,
  RunLogListener,
} from '../contracts/run-event-log.interface.js';
export type {
  CancelSignal,
  RunEndedSignal,
  SignalBus,
  SignalBusHealth,
  Unsubscribe,
} from '../contracts/signal-bus.interface.js';
export type { SavedTraceContext } from '../contracts/interrupted-state.js';
export { EventLogFencedError, EventLogGapError, NewerRecordFormatError } from '../errors/index.js';

export {
  SESSION_ENTITIES,
  SESSION_MIGRATIONS,
  SESSION_TYPEORM_OPTIONS,
} from '../typeorm-store/session-schema.js';
export { runSessionMigrations } from '../typeorm-store/run-session-migrations.js';
export {
  TypeOrmSessionStore,
  type TypeOrmSessionStoreOptions,
} from '../typeorm-store/typeorm-session.store.js';
export { TypeOrmRunEventLog } from '../typeorm-store/typeorm-run-event-log.js';
export { InMemoryRunEventLog } from '../streams/in-memory-run-event-log.js';
export { InProcessSignalBus } from '../signals/in-process-signal-bus.js';
export {
  PostgresSignalBus,
  type PostgresSignalBusOptions,
} from '../postgres-signals/postgres-signal-bus.js';
export type { ReconnectBackoff } from '../postgres-signals/postgres-listen-connection.js';
export type { LogAppendedSignal } from '../postgres-signals/postgres-signal-wire.js';
export type { LogNudges } from '../postgres-signals/log-nudges.js';
export { CreatorOwnsThread, type ThreadAccessPolicy } from '../threads/thread-access.policy.js';

export type {
  AnswerStream,
  RunHandle,
  SafePoint,
  ToolCallResult,
  ToolTraits,
} from '../handle/run-handle.interface.js';
export type { RunControl, StopRequest } from '../agent/run-control.js';
export type { RunEventSink } from '../agent/run-events.js';
export type { PendingToolCall, RunOutcome } from '../agent/run-outcome.js';
export { OUTCOME_UNKNOWN_RESULT } from '../resume/resume-message.js';

export type { DurableAgent } from '../handle/run-handle.interface.js';
export { idempotencyKeyOf, toolFenceOf, type ToolFence } from '../agent/tool-fence.js';
export { defaultResumeMessage } from '../resume/resume-message.js';
export { sharedTransaction } from '../typeorm-store/shared-transaction.js';
export type {
  SeamProvider,
  GracefulShutdownModuleExtras,
} from '../graceful-shutdown.module-definition.js';
