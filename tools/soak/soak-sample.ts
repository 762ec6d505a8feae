/** What the soak read about the service at one moment. */
export interface SoakSample {
  /** Ms since the soak began. */
  atMs: number;
  /** The instance life sampled (1, 2, …): each restart starts a new one. */
  life: number;
  /** `VmRSS` of `/proc/<pid>/status`, in bytes. */
  rssBytes?: number;
  /** `nodejs_heap_size_used_bytes` of the service's `/metrics`. */
  heapUsedBytes?: number;
  /** `nodejs_active_handles_total` of the service's `/metrics`. */
  handles?: number;
  /** `nodejs_eventloop_lag_p99_seconds` of the service's `/metrics` (since the scrape before). */
  lagP99Seconds?: number;
  /** Sessions of `pg_stat_activity` on the service's database. */
  dbConnections?: number;
  /** Runs the store records as completed so far (`agent_runs`, the soak's threads). */
  runsCompleted?: number;
  /** The machine's 1-minute load average (`os.loadavg()`): the soak shares the machine. */
  load1: number;
  /** Turns the clients saw completed so far, over all of them. */
  turnsCompleted: number;
  /** Turns the clients saw cancelled so far. */
  turnsCancelled: number;
}

/** The heap after one full collection of a serving life (the service runs with `--trace-gc`). */
export interface HeapAfterGc {
  /** Ms since the soak began. */
  atMs: number;
  life: number;
  /** Heap used after the collection, in MB. */
  afterMb: number;
}
