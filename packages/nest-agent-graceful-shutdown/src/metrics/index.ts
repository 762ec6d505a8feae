// Prometheus metrics of the module, through the optional peer `prom-client`.
export { AgentMetrics } from './agent-metrics';
export { AGENT_METRICS_REGISTRY, AgentMetricsModule, type AgentMetricsModuleOptions } from './agent-metrics.module';
export { AgentMetricName, CANCEL_BUCKETS, CHECKPOINT_BUCKETS, SHUTDOWN_BUCKETS } from './metric-names';
