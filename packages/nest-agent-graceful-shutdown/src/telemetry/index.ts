export { AgentTelemetry } from './agent-telemetry';
export type { AgentObserver, ObservedRun, RunOutcomeLabel, ShutdownPhaseLabel } from './agent-observer.interface';
export { TRACER_NAME, TraceAttr, type SavedTraceContext } from './trace-attributes';
