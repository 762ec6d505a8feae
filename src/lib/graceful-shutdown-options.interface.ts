import type { AgentHook } from './agent/agent-hook.interface';
import type { SignalBus } from './signals/signal-bus.interface';

/** Options of `GracefulShutdownModule`. Every one has a default. */
export interface GracefulShutdownModuleOptions {
  /**
   * After a shutdown starts, how long in-flight runs may go on before they are stopped at
   * their next safe point. 0 stops them at once.
   * @default 20000
   */
  drainTimeoutMs?: number;
  /**
   * Hard deadline for the whole shutdown, from the signal; the process has exited by then.
   * Must be greater than `drainTimeoutMs`: the difference is the budget to save and close.
   * @default 25000
   */
  shutdownTimeoutMs?: number;
  /**
   * `Retry-After` sent with 503 to new runs during a shutdown, in seconds.
   * @default 2
   */
  retryAfterSeconds?: number;
  /**
   * Let the module own the process's shutdown signals and exit with code 0 when the
   * shutdown is done. Turn off if the application calls `app.enableShutdownHooks()` itself.
   * @default true
   */
  handleSignals?: boolean;
  /**
   * Signals that start a shutdown.
   * @default ['SIGTERM', 'SIGINT']
   */
  signals?: NodeJS.Signals[];
  /**
   * Hooks installed into every run before the shutdown hook, in order.
   * @default []
   */
  hooks?: AgentHook[];
  /**
   * Name of the TypeORM data source that holds the sessions.
   * @default the default data source
   */
  dataSourceName?: string;
  /**
   * Carries cancels between instances. Takes precedence over `redisUrl`.
   * @default a Redis bus when `redisUrl` is set, else an in-process bus (one instance)
   */
  signalBus?: SignalBus;
  /**
   * Redis for cancels across instances (`redis://…`). The module connects it at boot and
   * closes it at shutdown; while Redis is down, cancels reach this instance's runs only.
   * @default unset: in-process signals
   */
  redisUrl?: string;
  /**
   * How long a cancel is remembered for a run that has not subscribed yet, in milliseconds.
   * @default 60000
   */
  cancelTtlMs?: number;
  /**
   * How long a run's lease on its thread lasts without renewal, in milliseconds. When an
   * instance dies, its threads read `interrupted` (reason `crash`) this long after its last
   * renewal and resume on any instance.
   * @default 15000
   */
  leaseTtlMs?: number;
  /**
   * How often the leases of this instance's runs are renewed, in milliseconds (one batched
   * write for all of them). Must be less than `leaseTtlMs`.
   * @default leaseTtlMs / 3
   */
  leaseRenewIntervalMs?: number;
  /**
   * At boot, record every run of another instance as interrupted by a crash without
   * waiting for its lease to expire. Right only when no other live instance shares the store.
   * @default true for an embedded SQLite store, false otherwise
   */
  recoverOrphanedRunsOnBoot?: boolean;
  /**
   * What happens to a model answer cut off by a stop (shutdown or cancel) while it streams:
   * `save` keeps the text so far as an assistant message flagged `truncated`, and the resume
   * message tells the model its last answer was cut off; `discard` keeps nothing of it.
   * Tool calls still being streamed are always dropped.
   * @default 'save'
   */
  partialOutput?: 'save' | 'discard';
  /**
   * During a shutdown's drain, a step (model or tool call) is not started when its expected
   * duration exceeds the time left; the run is interrupted at that safe point instead. This is
   * the expected duration of a step whose model or tool declares none (`expectedDurationMs`).
   * @default 5000
   */
  defaultStepDurationMs?: number;
  /**
   * Names this process in run records and logs.
   * @default `${hostname}-${pid}`
   */
  instanceId?: string;
}
