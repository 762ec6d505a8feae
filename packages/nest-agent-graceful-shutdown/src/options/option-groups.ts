import { MULTITASK_STRATEGIES } from '../agent/multitask.js';
import { constants } from 'node:os';
import type {
  GracefulShutdownModuleOptions,
  LeaseOptions,
  RunOptions,
  ShutdownOptions,
  SignalOptions,
  StreamOptions,
} from './graceful-shutdown-options.interface.js';
import { DEFAULT_STEP_DURATION_MS } from './default-step-duration.js';
import type { OptionGroupDeclaration } from './option-group.js';
import {
  arrayOf,
  BOOLEAN,
  FUNCTION,
  millisecondsAtLeastZero,
  NON_EMPTY_STRING,
  objectWithMethods,
  oneOf,
  POSITIVE_MILLISECONDS,
  POSITIVE_WHOLE_MILLISECONDS,
  POSTGRES_SIGNALS,
  VERSION_CHANGE_POLICY,
  wholeNumberAtLeastZero,
} from './option-rules.js';
import { defaultResumeMessage } from '../resume/resume-message.js';
import { RUN_LIMIT_OPTIONS } from './run-limits.js';

// Each option of the module, declared once: its default and what its value must be. The option
// docs (graceful-shutdown-options.interface.ts, docs/library/options.md) repeat the defaults.

/** The options of `shutdown`. */
export const SHUTDOWN_OPTIONS = {
  drainTimeoutMs: { rule: millisecondsAtLeastZero('stop runs at once'), default: 20_000 },
  timeoutMs: { rule: POSITIVE_MILLISECONDS, default: 25_000 },
  retryAfterSeconds: { rule: wholeNumberAtLeastZero(), default: 2 },
  handleSignals: { rule: BOOLEAN, default: true },
  signals: {
    rule: arrayOf(
      "process signal names ('SIGTERM')",
      (name) => typeof name === 'string' && Object.hasOwn(constants.signals, name),
    ),
    default: ['SIGTERM', 'SIGINT'],
  },
} satisfies OptionGroupDeclaration<ShutdownOptions>;

/** The options of `leases`. */
export const LEASE_OPTIONS = {
  ttlMs: { rule: POSITIVE_MILLISECONDS, default: 15_000 },
  renewIntervalMs: { rule: POSITIVE_MILLISECONDS, derive: ({ ttlMs }) => Math.floor(ttlMs / 3) },
  // Unset: the store decides (true for an embedded SQLite file).
  recoverOrphanedRunsOnBoot: { rule: BOOLEAN, default: undefined },
} satisfies OptionGroupDeclaration<LeaseOptions>;

/** The options of `signals`. */
export const SIGNAL_OPTIONS = {
  // Unset (and no bus): signals stay in the process.
  redisUrl: { rule: NON_EMPTY_STRING, default: undefined },
  redisCluster: { rule: BOOLEAN, default: false },
  redisClient: {
    rule: objectWithMethods('an ioredis Redis or Cluster client', ['duplicate']),
    default: undefined,
  },
  bus: {
    rule: objectWithMethods('a SignalBus', [
      'publishCancel',
      'onCancel',
      'publishRunEnded',
      'onRunEnded',
    ]),
    default: undefined,
  },
  // Unset: no PostgreSQL bus; `true` or settings: LISTEN/NOTIFY on the session store's database.
  postgres: { rule: POSTGRES_SIGNALS, default: undefined },
  // Redis keeps a cancel with `PX`, which takes whole milliseconds only.
  cancelTtlMs: { rule: POSITIVE_WHOLE_MILLISECONDS, default: 60_000 },
} satisfies OptionGroupDeclaration<SignalOptions>;

/** The options of `runs`. */
export const RUN_OPTIONS = {
  hooks: {
    rule: arrayOf('AgentHook objects', (hook) => typeof hook === 'object' && hook !== null),
    default: [],
  },
  partialOutput: { rule: oneOf('save', 'discard'), default: 'save' },
  defaultStepDurationMs: { rule: millisecondsAtLeastZero(), default: DEFAULT_STEP_DURATION_MS },
  sseHeartbeatMs: { rule: millisecondsAtLeastZero('off'), default: 15_000 },
  // Unset: decided from the store and the bus once both exist (ResumeModeSetting).
  resumeMode: { rule: oneOf('client', 'auto'), default: undefined },
  onDisconnect: { rule: oneOf('continue', 'cancel'), default: 'continue' },
  resumeMessage: { rule: FUNCTION, default: defaultResumeMessage },
  // Unset: the `version` of the package.json in the working directory (defaultAgentVersion).
  agentVersion: { rule: NON_EMPTY_STRING, default: undefined },
  onVersionChange: { rule: VERSION_CHANGE_POLICY, default: 'adapt' },
  multitask: { rule: oneOf(...MULTITASK_STRATEGIES), default: 'reject' },
} satisfies OptionGroupDeclaration<RunOptions>;

/** The options of `streams`. */
export const STREAM_OPTIONS = {
  retentionMs: { rule: POSITIVE_MILLISECONDS, default: 3_600_000 },
  // Unset: the log providers pick Redis Streams, the session database or memory.
  log: {
    rule: objectWithMethods('a RunEventLog', [
      'append',
      'claim',
      'read',
      'last',
      'follow',
      'retain',
    ]),
    default: undefined,
  },
} satisfies OptionGroupDeclaration<StreamOptions>;

/** The groups of `GracefulShutdownModuleOptions`: the options beside them are not grouped. */
export type OptionGroupName = keyof Omit<
  GracefulShutdownModuleOptions,
  'dataSourceName' | 'instanceId'
>;

/** Every group of the module's options and its declaration: a group left out fails to compile. */
export const OPTION_GROUPS: {
  readonly [G in OptionGroupName]: OptionGroupDeclaration<
    Required<GracefulShutdownModuleOptions>[G]
  >;
} = {
  shutdown: SHUTDOWN_OPTIONS,
  leases: LEASE_OPTIONS,
  signals: SIGNAL_OPTIONS,
  runs: RUN_OPTIONS,
  streams: STREAM_OPTIONS,
  limits: RUN_LIMIT_OPTIONS,
};
