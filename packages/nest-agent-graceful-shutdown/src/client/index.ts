// `nest-agent-graceful-shutdown/client`: an AG-UI client that follows a run's stream across dropped
// connections and instance handovers (optional peer `@ag-ui/client`).
export { ResumableHttpAgent } from './resumable-http-agent';
export type { ReconnectInfo, ReconnectKind, ResumableHttpAgentConfig, ResumableRunStats } from './resumable-http-agent-config';
export { RECONNECT_DEFAULTS, type ReconnectOptions } from './reconnect-options';
export { defaultJoinUrl } from './join-url';
export { RunRequestError } from './run-request.error';
export { ReconnectTimeoutError } from './reconnect-timeout.error';
export { EventGapError } from './event-gap.error';
export { InvalidStreamFrameError } from './invalid-stream-frame.error';
