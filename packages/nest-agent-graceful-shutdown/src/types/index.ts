// The `/types` entry: the shapes that the root entry's module, services and interfaces take and
// return, for a service that names them in its own code (a typed config factory, a controller's
// return type, a client of its own). Types only: importing it loads no code.
export type {
  LeaseOptions,
  PostgresSignalSettings,
  RedisClientLike,
  RunLimitOptions,
  RunOptions,
  ShutdownOptions,
  SignalOptions,
  StreamOptions,
} from '../options/graceful-shutdown-options.interface.js';
export type { ResumeMode } from '../options/resume-mode.js';
export type { ResumeMessageContext, ResumeMessageTemplate } from '../resume/resume-message.js';

export type { RunEventBase } from '../agent/agent-hook.interface.js';
export type { MessageRole } from '../agent/agent-message.js';
export type { ModelStreamSink, ModelUsage } from '../agent/agent-model.interface.js';
export type { RunPhase } from '../agent/stop-reason.js';
export type { InterruptReason } from '../contracts/interrupted-state.js';
export type { AgentRef } from '../runtime/agent-registry.js';

export type { ValidRunInput } from '../runs/run-input.js';
export type { RunRequestOptions } from '../runs/run-answer.js';
export type { JoinQuery } from '../runs/run-stream.service.js';
export type { CancelResult } from '../runs/run-cancel.service.js';
export type { ExistingRunAnswerKind } from '../streams/existing-run-stream.js';
export type { HttpResponseTarget } from '../http/server-response.js';
export type { MessageView, ThreadView } from '../threads/thread-views.js';
export type {
  ThreadListItemView,
  ThreadListRequest,
  ThreadListView,
} from '../threads/thread-list-view.js';
export type { MessagePageRequest, MessagePageView } from '../threads/message-page-view.js';

export type { ShutdownPhase } from '../shutdown/shutdown-coordinator.service.js';
export type { ParticipantOptions, ShutdownHandler } from '../shutdown/shutdown-participants.js';
