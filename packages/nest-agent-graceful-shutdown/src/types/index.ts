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
} from '../options/graceful-shutdown-options.interface';
export type { ResumeMode } from '../options/resume-mode';
export type { ResumeMessageContext, ResumeMessageTemplate } from '../resume/resume-message';

export type { RunEventBase } from '../agent/agent-hook.interface';
export type { MessageRole } from '../agent/agent-message';
export type { ModelStreamSink, ModelUsage } from '../agent/agent-model.interface';
export type { RunPhase } from '../agent/stop-reason';
export type { InterruptReason } from '../contracts/interrupted-state';
export type { AgentRef } from '../runtime/agent-registry';

export type { ValidRunInput } from '../runs/run-input';
export type { RunRequestOptions } from '../runs/run-answer';
export type { JoinQuery } from '../runs/run-stream.service';
export type { CancelResult } from '../runs/run-cancel.service';
export type { ExistingRunAnswerKind } from '../streams/existing-run-stream';
export type { HttpResponseTarget } from '../http/server-response';
export type { MessageView, ThreadView } from '../threads/thread-views';
export type { ThreadListItemView, ThreadListRequest, ThreadListView } from '../threads/thread-list-view';

export type { ShutdownPhase } from '../shutdown/shutdown-coordinator.service';
export type { ParticipantOptions, ShutdownHandler } from '../shutdown/shutdown-participants';
