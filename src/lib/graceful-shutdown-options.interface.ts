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
   * Carries cancels between instances.
   * @default an in-process bus (one instance)
   */
  signalBus?: SignalBus;
  /**
   * At boot, mark runs left `running` by a process that died as interrupted (`crash`), so they
   * resume. Right for one instance per store; turn off when instances share the store.
   * @default true
   */
  recoverOrphanedRunsOnBoot?: boolean;
  /**
   * Names this process in run records and logs.
   * @default `${hostname}-${pid}`
   */
  instanceId?: string;
}
