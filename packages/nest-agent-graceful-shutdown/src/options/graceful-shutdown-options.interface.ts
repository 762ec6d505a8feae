import type { AgentHook } from '../agent/agent-hook.interface.js';
import type { VersionChangePolicy } from '../agent/agent-release.js';
import type { MultitaskStrategy } from '../agent/multitask.js';
import type { ResumeMessageTemplate } from '../resume/resume-message.js';
import type { RunLimitOptions } from './run-limits.js';
import type { SignalBus } from '../contracts/signal-bus.interface.js';
import type { RunEventLog } from '../contracts/run-event-log.interface.js';

/** When and how the process shuts down. */
export interface ShutdownOptions {
  /**
   * After a shutdown starts, how long in-flight runs may go on before they are stopped at
   * their next safe point, in milliseconds. 0 stops them at once.
   * @default 20000
   */
  drainTimeoutMs?: number;
  /**
   * Hard deadline of the whole shutdown, from the signal, in milliseconds: the process has
   * exited by then. Must exceed `drainTimeoutMs`: the difference is the budget to save
   * interrupted runs and close the application.
   * @default 25000
   */
  timeoutMs?: number;
  /**
   * `Retry-After` of the 503 answered to new runs during a shutdown, in seconds.
   * @default 2
   */
  retryAfterSeconds?: number;
  /**
   * Let the module own the process's shutdown signals: on the first one it drains, closes the
   * application through Nest's own sequence (every `onModuleDestroy`,
   * `beforeApplicationShutdown` and `onApplicationShutdown`) and exits with code 0. Works with
   * or without `app.enableShutdownHooks()`. Turn off when the host handles signals itself and
   * calls `app.close()`.
   * @default true
   */
  handleSignals?: boolean;
  /**
   * The process signals that start a shutdown.
   * @default ['SIGTERM', 'SIGINT']
   */
  signals?: NodeJS.Signals[];
}

/** Leases: one writer per thread across instances. */
export interface LeaseOptions {
  /**
   * How long a run's lease on its thread lasts without renewal, in milliseconds. When an
   * instance dies, its threads read `interrupted` (reason `crash`) this long after its last
   * renewal and resume on any instance.
   * @default 15000
   */
  ttlMs?: number;
  /**
   * How often the leases of this instance's runs are renewed (one batched write for all of
   * them), in milliseconds. At most a third of `ttlMs`, so a lease outlives two missed
   * renewals (a blocked event loop, a slow write).
   * @default ttlMs / 3
   */
  renewIntervalMs?: number;
  /**
   * At boot, record every run of another instance as interrupted by a crash without waiting
   * for its lease to expire. Right only when no other live instance shares the store.
   * @default true for an embedded SQLite store, false otherwise
   */
  recoverOrphanedRunsOnBoot?: boolean;
}

/** Settings of the PostgreSQL signal bus (`signals.postgres`). */
export interface PostgresSignalSettings {
  /**
   * Put before every channel name, so several apps can share one database: lower-case
   * letters, digits and `_`, at most 50 characters.
   * @default 'agent_'
   */
  channelPrefix?: string;
}

/**
 * An ioredis `Redis` or `Cluster` client, as far as the module needs to know it (the package
 * root does not depend on the optional peer `ioredis`).
 */
export interface RedisClientLike {
  /** `true` for an ioredis `Cluster`. */
  readonly isCluster: boolean;
  /** A new client with the same settings. */
  duplicate(...args: never[]): unknown;
}

/** How cancels and run-ended notices travel between instances. */
export interface SignalOptions {
  /**
   * Redis for signals across instances (`redis://…`); needs the optional peer `ioredis`. The
   * module connects it at boot and closes it at shutdown; while Redis is down, cancels reach
   * this instance's runs only.
   * @default unset: in-process signals (one instance)
   */
  redisUrl?: string;
  /**
   * PostgreSQL `LISTEN`/`NOTIFY` for signals across instances, on the session store's own
   * database (no Redis): `true`, or settings. One dedicated connection per instance; cancels
   * are also kept in `agent_run_cancels` (a session migration). The module connects it at boot
   * and closes it at shutdown; while the connection is down, cancels reach this instance's runs
   * only, and other instances learn of them at their next liveness check. Not with `redisUrl` or `redisClient`.
   * @default unset: no PostgreSQL bus
   */
  postgres?: true | PostgresSignalSettings;
  /**
   * `true`: `redisUrl` names one seed node of a Redis Cluster (the other nodes are found from
   * it). A run's keys then share a hash tag, so they live in one slot, and follows read one
   * slot group per command.
   * @default false
   */
  redisCluster?: boolean;
  /**
   * An ioredis `Redis` or `Cluster` client to take the place of `redisUrl`: the module opens
   * its own connections from its settings (`duplicate()`), and closes them at shutdown; the
   * client stays yours. A `Cluster` turns on what `redisCluster` does.
   * @default unset
   */
  redisClient?: RedisClientLike;
  /**
   * A bus of your own; takes precedence over `postgres`, `redisUrl` and `redisClient`. It is yours to connect and close.
   * @default a PostgreSQL bus with `postgres`, a Redis bus with `redisUrl` or `redisClient`, else an in-process bus
   */
  bus?: SignalBus;
  /**
   * How long a cancel is remembered for a run that has not subscribed yet, in whole
   * milliseconds (Redis keeps it with `PX`).
   * @default 60000
   */
  cancelTtlMs?: number;
}

/** How every run behaves. */
export interface RunOptions {
  /**
   * Hooks installed into every run before the shutdown hook, in order.
   * @default []
   */
  hooks?: AgentHook[];
  /**
   * A model answer cut off by a stop while it streams: `save` keeps the text so far as an
   * assistant message flagged `truncated` (the resume message says so); `discard` keeps
   * nothing of it. Tool calls still streaming are always dropped.
   * @default 'save'
   */
  partialOutput?: 'save' | 'discard';
  /**
   * During a drain, a step is not started when its expected duration exceeds the time left;
   * this is the expected duration of a model or tool that declares no `expectedDurationMs`.
   * @default 5000
   */
  defaultStepDurationMs?: number;
  /**
   * An event stream gets a comment line when nothing was written to it for this long, in
   * milliseconds, so proxies and load balancers (often 60 s idle limits) keep it open while
   * a model call is silent. 0 turns it off.
   * @default 15000
   */
  sseHeartbeatMs?: number;
  /**
   * Who continues a run interrupted by a shutdown or a crash. `client`: the client's retry of
   * the same request. `auto`: any live instance, at once: a shutdown hands the run over
   * (its client gets a `handover` notice and joins the run's stream elsewhere), a crash is
   * continued once its lease expired, and the first instance to start continues what no
   * instance was left to take. A client's retry works in both.
   * @default 'auto' on a shared store (not an embedded file) with Redis, else 'client'
   */
  resumeMode?: 'client' | 'auto';
  /**
   * What a client that goes away before its run ends does to the run: `continue` (the run
   * finishes and its stream can be joined) or `cancel` (a user's stop).
   * @default 'continue'
   */
  onDisconnect?: 'continue' | 'cancel';
  /**
   * What a new run does on a thread whose run is active, unless its request says
   * (`RunRequestOptions.multitask`): `reject` (409 `RUN_IN_PROGRESS`), `interrupt` (the
   * active run, on any instance, stops at its next safe point and the new run follows it) or
   * `rollback` (the same, then what the stopped run added is removed). See `MultitaskStrategy`.
   * @default 'reject'
   */
  multitask?: MultitaskStrategy;
  /**
   * Writes the system message added to an interrupted thread's history when it resumes.
   * @default the built-in English text (when, why, which phase, what was pending)
   */
  resumeMessage?: ResumeMessageTemplate;
  /**
   * The `version` label of agents that set none: recorded with every run attempt and in the
   * interrupt marker, beside the fingerprint the module computes, so a resume knows when it
   * crosses a release. Set it to the app's release (an image tag, an env variable).
   * @default the `version` of the `package.json` in the working directory, else `'unversioned'`
   */
  agentVersion?: string;
  /**
   * How a resume goes on when its agent's version or fingerprint differs from the interrupted
   * attempt's, for agents that set no `onVersionChange` of their own: `adapt` (pending calls
   * whose tool is gone or whose arguments its schema refuses are answered "not run"),
   * `refuse` (409 `AGENT_VERSION_CHANGED`), `skip-pending`, or a function that decides.
   * @default 'adapt'
   */
  onVersionChange?: VersionChangePolicy;
}

/** The run event logs that make run streams joinable. */
export interface StreamOptions {
  /**
   * How long a run's event log stays joinable after the run ends, in milliseconds.
   * @default 3600000
   */
  retentionMs?: number;
  /**
   * A log of your own; takes precedence. It is yours to connect and close.
   * @default Redis Streams with `signals.redisUrl`, else the session database (default store), else process memory
   */
  log?: RunEventLog;
}

export type { RunLimitOptions } from './run-limits.js';

/** Options of `GracefulShutdownModule`. Every one has a default. */
export interface GracefulShutdownModuleOptions {
  /** When and how the process shuts down. */
  shutdown?: ShutdownOptions;
  /** Leases on threads. */
  leases?: LeaseOptions;
  /** Signals between instances. */
  signals?: SignalOptions;
  /** Behaviour of every run. */
  runs?: RunOptions;
  /** Joinable run streams. */
  streams?: StreamOptions;
  /** Per-user limits on runs and messages (429 with `Retry-After`). */
  limits?: RunLimitOptions;
  /**
   * Name of the TypeORM data source that holds the sessions (with the default store).
   * @default the default data source
   */
  dataSourceName?: string;
  /**
   * Names this process in run records and logs.
   * @default `${hostname}-${pid}`
   */
  instanceId?: string;
}
