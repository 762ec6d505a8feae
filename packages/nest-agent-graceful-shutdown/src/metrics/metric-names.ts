/** The metrics' names, as operators' dashboards and alerts know them. */
export const AgentMetricName = {
  runsInFlight: 'agent_runs_in_flight',
  runsTotal: 'agent_runs_total',
  runResumesTotal: 'agent_run_resumes_total',
  shutdownDurationSeconds: 'agent_shutdown_duration_seconds',
  checkpointDurationSeconds: 'agent_checkpoint_duration_seconds',
  cancelDeliverySeconds: 'agent_cancel_delivery_seconds',
  leaseLostTotal: 'agent_lease_lost_total',
  signalBusConnected: 'agent_signal_bus_connected',
  toolCallsAbandonedTotal: 'agent_tool_calls_abandoned_total',
  streamJoinsTotal: 'agent_stream_joins_total',
  resumesAcrossVersionsTotal: 'agent_resumes_across_versions_total',
  toolCallsNotRunTotal: 'agent_tool_calls_not_run_total',
  modelTokensDiscardedTotal: 'agent_model_tokens_discarded_total',
} as const;

/** Histogram buckets, in seconds: a shutdown's phases last up to the pod's grace period. */
export const SHUTDOWN_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 20, 25, 30, 45, 60, 120];

/** Histogram buckets, in seconds: one checkpoint is a database write. */
export const CHECKPOINT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Histogram buckets, in seconds: from a cancel's acceptance until its run stopped. */
export const CANCEL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
