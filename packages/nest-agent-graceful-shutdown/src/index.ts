// The root entry: what a service that uses the module imports. The entry points of the package,
// and who each is for, are listed in the README's "Entry points" section.
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
export { defaultResumeMessage, type ResumeMessageContext, type ResumeMessageTemplate } from './resume/resume-message';

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
export { StopReason, type RunPhase } from './agent/stop-reason';
export type { DurableAgent } from './handle/run-handle.interface';
export type { InterruptedState, InterruptReason } from './contracts/interrupted-state';
export { GracefulShutdownHook } from './shutdown/graceful-shutdown.hook';

export { AgentRunService } from './runs/agent-run.service';
export { RunStreamService, type JoinQuery } from './runs/run-stream.service';
export { RunCancelService, type CancelResult } from './runs/run-cancel.service';
export { ThreadQueryService } from './threads/thread-query.service';
export { ShutdownCoordinator, type ShutdownPhase } from './shutdown/shutdown-coordinator.service';
export type { ResumeMode } from './options/resume-mode';
export type { HttpResponseTarget } from './http/server-response';
export type { ParticipantOptions, ShutdownHandler } from './shutdown/shutdown-participants';
export { AgentRegistry, type AgentRef } from './runtime/agent-registry';

export { parseRunInput, ID_RULE, isValidId, type ValidRunInput } from './runs/run-input';
export type { RunAnswer, RunRequestOptions } from './runs/run-answer';
export type { AgentRun } from './runs/agent-run';
export { ExistingRunStream, type ExistingRunAnswerKind } from './streams/existing-run-stream';
export type { MessageView, ThreadView } from './threads/thread-views';
export { MAX_THREAD_PAGE_SIZE, type ThreadListItemView, type ThreadListRequest, type ThreadListView } from './threads/thread-list-view';
export { sharedTransaction } from './session/shared-transaction';

export {
  AgentServiceError,
  ApprovalPendingError,
  EventLogUnavailableError,
  HistoryLimitError,
  InvalidEventIdError,
  InvalidRunInputError,
  InvalidThreadListQueryError,
  LeaseLostError,
  ModelCallError,
  type ModelCallErrorCode,
  RunAlreadyEndedError,
  RunIdReusedError,
  RunInProgressError,
  RunNotFoundError,
  RunStoppedError,
  ShuttingDownError,
  StoreUnavailableError,
  StreamGoneError,
  ThreadAccessDeniedError,
  ThreadNotFoundError,
  TooManyMessagesError,
  TooManyRunsError,
} from './errors';
