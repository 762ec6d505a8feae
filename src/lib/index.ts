// The public API of the library. Everything else is internal.
export { GracefulShutdownModule } from './graceful-shutdown.module';
export type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface';
export { GRACEFUL_SHUTDOWN_MODULE_OPTIONS } from './graceful-shutdown.module-definition';

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
export { OpenAiChatModel, type OpenAiChatModelOptions } from './models/openai-chat.model';
export { AgentRuntime, type AgentRunEnvironment, type AgentRunInput, type PartialOutputPolicy } from './agent/agent-runtime';
export { RunControl, type StopRequest } from './agent/run-control';
export type { RunEventSink } from './agent/run-events';
export type { PendingToolCall, RunOutcome } from './agent/run-outcome';
export type { StepCheckpointer, StepProgress } from './agent/step-checkpointer.interface';
export { StopReason, type RunPhase } from './agent/stop-reason';

export { GracefulShutdownHook, type RunFinalizer } from './shutdown/graceful-shutdown.hook';
export type { InterruptedState, InterruptReason } from './shutdown/interrupted-state';
export { ShutdownCoordinator, type ShutdownPhase } from './shutdown/shutdown-coordinator.service';
export { InFlightRunRegistry, type InFlightRun } from './shutdown/in-flight-run.registry';
export { PROCESS_TERMINATOR, type ProcessTerminator } from './shutdown/process-terminator';
export { ShutdownHealthIndicator } from './health/shutdown.health-indicator';
export { SignalBusHealthIndicator } from './health/signal-bus.health-indicator';
export { LeaseKeeper } from './leases/lease-keeper.service';

export { AgentRunService } from './runs/agent-run.service';
export { AgentRun } from './runs/agent-run';
export { parseRunInput, ID_PATTERN, type ValidRunInput } from './runs/run-input';
export { RunCancelService, type CancelResult } from './runs/run-cancel.service';
export { SseEventStream } from './runs/sse-event-stream';
export { AgentExceptionFilter } from './http/agent-exception.filter';
export { ThreadQueryService } from './threads/thread-query.service';
export type { MessageView, ThreadView } from './threads/thread-views';

export { SESSION_ENTITIES, SESSION_MIGRATIONS, SESSION_TYPEORM_OPTIONS } from './session/session-schema';
export { runSessionMigrations } from './session/run-session-migrations';
export { SESSION_STORE, type SessionStore } from './session/session-store.interface';
export type { RunRecord, RunStatus, StoredMessage, ThreadRecord, ThreadStatus, ToolCallRecord } from './session/session-records';
export { TypeOrmSessionStore, type TypeOrmSessionStoreOptions } from './session/typeorm-session.store';
export { SIGNAL_BUS, type SignalBus, type SignalBusHealth, type CancelSignal, type RunEndedSignal } from './signals/signal-bus.interface';
export { InProcessSignalBus } from './signals/in-process-signal-bus';
export { RedisSignalBus, type RedisSignalBusOptions } from './signals/redis-signal-bus';

export * from './errors';
