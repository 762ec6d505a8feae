/** The service's own metrics (GET /metrics), with their Prometheus types. */
export const SERVICE_METRICS: Readonly<Record<string, 'counter' | 'gauge' | 'histogram'>> = {
  agent_runs_in_flight: 'gauge',
  agent_runs_total: 'counter',
  agent_run_resumes_total: 'counter',
  agent_shutdown_duration_seconds: 'histogram',
  agent_checkpoint_duration_seconds: 'histogram',
  agent_cancel_delivery_seconds: 'histogram',
  agent_lease_lost_total: 'counter',
  agent_signal_bus_connected: 'gauge',
  agent_stream_joins_total: 'counter',
  agent_tool_calls_abandoned_total: 'counter',
  agent_resumes_across_versions_total: 'counter',
  agent_tool_calls_not_run_total: 'counter',
  agent_model_tokens_discarded_total: 'counter',
};

/** prom-client's default process and Node.js metrics that the chart's queries may use. */
export const DEFAULT_PROCESS_METRICS: readonly string[] = [
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'process_start_time_seconds',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_heap_size_used_bytes',
];

/** Words of PromQL that look like metric names but are not (aggregations are followed by `by`, not `(`). */
const KEYWORDS = new Set([
  ...[
    'and',
    'or',
    'unless',
    'by',
    'without',
    'on',
    'ignoring',
    'group_left',
    'group_right',
    'offset',
    'bool',
    'inf',
    'nan',
  ],
  ...[
    'sum',
    'min',
    'max',
    'avg',
    'group',
    'stddev',
    'stdvar',
    'count',
    'count_values',
    'bottomk',
    'topk',
    'quantile',
  ],
]);

/**
 * The metric names a PromQL expression selects: string literals, label matchers, ranges and
 * grouping label lists are removed first, and function names (followed by `(`) left out.
 *
 * @example
 * metricNames('sum by (pod) (rate(agent_runs_total{outcome="failed"}[5m]))'); // ['agent_runs_total']
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '$1');
  const names = [...bare.matchAll(/(?<![\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)(?![\w:])(?!\s*\()/g)].map(
    (match) => match[1],
  );
  return [...new Set(names.filter((name) => !KEYWORDS.has(name.toLowerCase())))];
}

/** Whether `name` is a series of a service metric (a histogram's `_bucket`, `_sum`, `_count` included) or an allowed default metric. */
export function isKnownMetric(name: string): boolean {
  if (name in SERVICE_METRICS || DEFAULT_PROCESS_METRICS.includes(name)) return true;
  const histogram = /^(.*)_(bucket|sum|count)$/.exec(name)?.[1];
  return histogram !== undefined && SERVICE_METRICS[histogram] === 'histogram';
}
