// `nest-agent-graceful-shutdown/client`: an AG-UI client that follows a run's stream across dropped
// connections and instance handovers (optional peer `@ag-ui/client`).
export { ResumableHttpAgent } from './resumable-http-agent.js';
export type {
  ReconnectInfo,
  ReconnectKind,
  ResumableHttpAgentConfig,
  ResumableRunStats,
} from './resumable-http-agent-config.js';
export { RECONNECT_DEFAULTS, type ReconnectOptions } from './reconnect-options.js';
export { defaultJoinUrl } from './join-url.js';
export { RunRequestError } from './run-request.error.js';
export { ReconnectTimeoutError } from './reconnect-timeout.error.js';
export { EventGapError } from './event-gap.error.js';
export { InvalidStreamFrameError } from './invalid-stream-frame.error.js';
