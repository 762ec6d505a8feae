export { AgentTelemetry } from './agent-telemetry.js';
export type {
  AgentObserver,
  ObservedRun,
  RunOutcomeLabel,
  ShutdownPhaseLabel,
} from './agent-observer.interface.js';
export { TRACER_NAME, TraceAttr, type SavedTraceContext } from './trace-attributes.js';
export type { DiscardedTokens, TokenCountSource } from '../agent/discarded-tokens.js';
