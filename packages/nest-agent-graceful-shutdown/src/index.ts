// The root entry: what a service that uses the module writes in its own code. The module, the
// hook, the interfaces an agent is made of, the services to inject and the errors. The shapes
// those take and return are types of the `/types` entry; what an implementer of a store, a bus,
// a log or an agent loop of their own needs is in `/store`. Every entry point, and who each is
// for, is listed in the README's "Entry points" section.
export { GracefulShutdownModule } from './graceful-shutdown.module.js';
export type { GracefulShutdownModuleOptions } from './options/graceful-shutdown-options.interface.js';

export type { AgentDefinition } from './agent/agent-definition.js';
export type {
  AgentHook,
  HookDecision,
  PostActingEvent,
  PostReasoningEvent,
  PreActingEvent,
  PreReasoningEvent,
  RunEndEvent,
  RunStartEvent,
  StopDecision,
} from './agent/agent-hook.interface.js';
export type { AgentMessage, ToolCall } from './agent/agent-message.js';
export type {
  AgentModel,
  ModelCallContext,
  ModelRequest,
  ModelResponse,
} from './agent/agent-model.interface.js';
export type { AgentTool, ToolCallContext, ToolDefinition } from './agent/agent-tool.interface.js';
export type {
  AgentRelease,
  AgentShape,
  AgentVersionChange,
  NotRunCall,
  NotRunReason,
  ToolInputCheck,
  VersionChangeDecision,
  VersionChangePolicy,
} from './agent/agent-release.js';
export { StopReason } from './agent/stop-reason.js';
export {
  MULTITASK_STRATEGIES,
  type MultitaskStrategy,
  type RunReplacement,
} from './agent/multitask.js';
export { RUN_ROLLED_BACK_EVENT } from './runs/rollback-announcement.js';
export { RUN_QUEUED_EVENT } from './runs/queued-run-log.js';
export type { InterruptedState } from './contracts/interrupted-state.js';
export { GracefulShutdownHook } from './shutdown/graceful-shutdown.hook.js';

export { AgentRunService } from './runs/agent-run.service.js';
export { RunStreamService } from './runs/run-stream.service.js';
export { RunCancelService } from './runs/run-cancel.service.js';
export { ThreadQueryService } from './threads/thread-query.service.js';
export { ShutdownCoordinator } from './shutdown/shutdown-coordinator.service.js';
export { AgentRegistry } from './runtime/agent-registry.js';

export { parseRunInput, ID_RULE, isValidId } from './runs/run-input.js';
export {
  isStorableText,
  isValidUserId,
  MAX_USER_ID_LENGTH,
  TEXT_RULE,
  USER_ID_RULE,
} from './arguments/text-rule.js';
export type { RunAnswer } from './runs/run-answer.js';
export type { AgentRun } from './runs/agent-run.js';
export { ExistingRunStream } from './streams/existing-run-stream.js';
export { MAX_THREAD_PAGE_SIZE } from './threads/thread-list-view.js';
export { MAX_MESSAGE_PAGE_SIZE } from './threads/message-page-view.js';

// What the services above resolve with. TypeScript names an inferred type only through an entry
// the file that infers it imports, so a controller that returns these results (with
// `declaration: true`, as `nest new` sets it) compiles only when the root exports them too.
export type { MessageView, ThreadView } from './threads/thread-views.js';
export type { ThreadListItemView, ThreadListView } from './threads/thread-list-view.js';
export type { MessagePageRequest, MessagePageView } from './threads/message-page-view.js';
export type { CancelResult } from './runs/run-cancel.service.js';
export type { RunOutcome } from './agent/run-outcome.js';
export type { ShutdownPhase } from './shutdown/shutdown-coordinator.service.js';

export {
  AgentServiceError,
  AgentVersionChangedError,
  ApprovalPendingError,
  EventLogUnavailableError,
  HistoryLimitError,
  InvalidEventIdError,
  InvalidIdError,
  InvalidRunInputError,
  InvalidThreadListQueryError,
  InvalidWaitError,
  InvalidMultitaskError,
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
  ThreadTooLargeError,
  TooManyMessagesError,
  TooManyRunsError,
} from './errors/index.js';
