// The public API of the package root. Integrations have their own entries (`/redis`,
// `/openai`, `/terminus`, `/testing`); everything else is internal.
export { GracefulShutdownModule } from './graceful-shutdown.module';
export type { SeamProvider, GracefulShutdownModuleExtras } from './graceful-shutdown.module-definition';
export type {
  GracefulShutdownModuleOptions,
  LeaseOptions,
  RunLimitOptions,
  RunOptions,
  ShutdownOptions,
  SignalOptions,
  StreamOptions,
} from './options/graceful-shutdown-options.interface';

export type { AgentDefinition } from './agent/agent-definition';
export type {
  AgentHook,
  HookDecision,
  PostActingEvent,
  PostReasoningEvent,
  PreActingEvent,
  PreReasoningEvent,
  RunEndEvent,
  RunEventBase,
  RunStartEvent,
  StopDecision,
} from './agent/agent-hook.interface';
export type { AgentMessage, MessageRole, ToolCall } from './agent/agent-message';
export type { AgentModel, ModelCallContext, ModelRequest, ModelResponse, ModelStreamSink, ModelUsage } from './agent/agent-model.interface';
export type { AgentTool, ToolCallContext, ToolDefinition } from './agent/agent-tool.interface';
export { idempotencyKeyOf, toolFenceOf, type ToolFence } from './agent/tool-fence';
export type { RunControl, StopRequest } from './agent/run-control';
export type { RunEventSink } from './agent/run-events';
export type { PendingToolCall, RunOutcome } from './agent/run-outcome';
export type { StepCheckpointer, StepProgress } from './contracts/step-checkpointer.interface';
export { StopReason, type RunPhase } from './agent/stop-reason';

export type { AnswerStream, DurableAgent, RunHandle, SafePoint, ToolCallResult, ToolTraits } from './handle/run-handle.interface';
export { OUTCOME_UNKNOWN_RESULT } from './resume/resume-message';

export { GracefulShutdownHook, type RunFinalizer } from './shutdown/graceful-shutdown.hook';
export type { InterruptedState, InterruptReason } from './contracts/interrupted-state';
export { ShutdownCoordinator, type ShutdownPhase } from './shutdown/shutdown-coordinator.service';
export type { ParticipantOptions, ShutdownHandler } from './shutdown/shutdown-participants';

export { AgentRunService } from './runs/agent-run.service';
export { AgentRegistry, DEFAULT_AGENT_NAME, type AgentRef } from './runtime/agent-registry';
export type { ResumeMode } from './options/resume-mode';
export { RunStreamService, type JoinQuery } from './runs/run-stream.service';
export { ExistingRunStream, type ExistingRunAnswerKind } from './streams/existing-run-stream';
export type { RunAnswer, RunRequestOptions } from './runs/run-answer';
export { RUN_EVENT_LOG, type LoggedEvent, type RunEventLog, type RunLogKey, type RunLogListener } from './contracts/run-event-log.interface';
export { InMemoryRunEventLog } from './streams/in-memory-run-event-log';
export type { AgentRun } from './runs/agent-run';
export type { HttpResponseTarget } from './http/server-response';
export { parseRunInput, ID_PATTERN, ID_RULE, isValidId, type ValidRunInput } from './runs/run-input';
export { RunCancelService, type CancelResult } from './runs/run-cancel.service';
export { ThreadQueryService } from './threads/thread-query.service';
export { CreatorOwnsThread, THREAD_ACCESS_POLICY, type ThreadAccessPolicy } from './threads/thread-access.policy';
export type { MessageView, ThreadView } from './threads/thread-views';
export {
  DEFAULT_THREAD_PAGE_SIZE,
  MAX_THREAD_PAGE_SIZE,
  type ThreadListItemView,
  type ThreadListRequest,
  type ThreadListView,
} from './threads/thread-list-view';
export { defaultResumeMessage, type ResumeMessageContext, type ResumeMessageTemplate } from './resume/resume-message';

export { SESSION_ENTITIES, SESSION_MIGRATIONS, SESSION_TYPEORM_OPTIONS } from './session/session-schema';
export { runSessionMigrations } from './session/run-session-migrations';
export { sharedTransaction } from './session/shared-transaction';
export {
  SESSION_STORE,
  ThreadBusyError,
  type CheckpointTarget,
  type FinishRunCommand,
  type SessionStore,
  type StartedRun,
  type StartRunCommand,
} from './contracts/session-store.interface';
export type { RunRecord, RunStatus, StoredMessage, ThreadRecord, ThreadStatus, ToolCallRecord } from './contracts/session-records';
export type { ThreadListPage, ThreadListPosition, ThreadListQuery, ThreadSummary } from './contracts/thread-list';
export { TypeOrmSessionStore, type TypeOrmSessionStoreOptions } from './session/typeorm-session.store';
export { TypeOrmRunEventLog } from './session/typeorm-run-event-log';
export { SIGNAL_BUS, type CancelSignal, type RunEndedSignal, type SignalBus, type SignalBusHealth, type Unsubscribe } from './contracts/signal-bus.interface';
export { InProcessSignalBus } from './signals/in-process-signal-bus';

export {
  AgentTelemetry,
  TRACER_NAME,
  TraceAttr,
  type AgentObserver,
  type ObservedRun,
  type RunOutcomeLabel,
  type SavedTraceContext,
  type ShutdownPhaseLabel,
} from './telemetry';

export * from './errors';
