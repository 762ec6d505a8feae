// Prometheus metrics of the module, through the optional peer `prom-client`.
export { AgentMetrics } from './agent-metrics.js';
export {
  AGENT_METRICS_REGISTRY,
  AgentMetricsModule,
  type AgentMetricsModuleOptions,
} from './agent-metrics.module.js';
export {
  AgentMetricName,
  CANCEL_BUCKETS,
  CHECKPOINT_BUCKETS,
  SHUTDOWN_BUCKETS,
} from './metric-names.js';
