import type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface.js';
import { OPTION_GROUPS, type OptionGroupName } from './option-groups.js';

/** Every key of `T`, each once: adding an option without listing it here fails to compile. */
type KeysOf<T> = { readonly [K in keyof Required<T>]: true };

const TOP_LEVEL: KeysOf<GracefulShutdownModuleOptions> = {
  shutdown: true,
  leases: true,
  signals: true,
  runs: true,
  streams: true,
  limits: true,
  dataSourceName: true,
  instanceId: true,
};

/** The settings of `forRoot` that sit beside the options (`GracefulShutdownModuleExtras`, a layer above). */
const EXTRAS = new Set(['isGlobal', 'store', 'threadAccess']);

/** Names of the flat, ungrouped shape of the options, and where each lives now. */
const FLAT_NAMES: Readonly<Record<string, string>> = {
  shutdownTimeoutMs: 'shutdown.timeoutMs',
  leaseTtlMs: 'leases.ttlMs',
  leaseRenewIntervalMs: 'leases.renewIntervalMs',
  signalBus: 'signals.bus',
  streamRetentionMs: 'streams.retentionMs',
  eventLog: 'streams.log',
};

/**
 * Refuses options the module does not have, with a `TypeError` that says where the option
 * belongs: a grouped option written at the top level (`drainTimeoutMs`, the flat shape of older
 * examples, is `shutdown.drainTimeoutMs`), one in the wrong group (`shutdown.ttlMs` is
 * `leases.ttlMs`), or a name no group has. An ignored option would silently keep its default.
 */
export function assertKnownOptions(options: object): void {
  for (const [key, value] of Object.entries(options)) {
    if (Object.hasOwn(TOP_LEVEL, key) || EXTRAS.has(key)) {
      if (isGroup(key) && value !== undefined) assertKnownGroupKeys(key, value);
      continue;
    }
    throw new TypeError(
      `unknown option ${key}${whereItBelongs(key) ?? `; the options are ${Object.keys(TOP_LEVEL).join(', ')}`}`,
    );
  }
}

function assertKnownGroupKeys(group: OptionGroupName, values: unknown): void {
  if (group === 'signals' && Array.isArray(values)) {
    throw new TypeError(
      'option signals takes the signals between instances; the process signals to handle belong at shutdown.signals',
    );
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new TypeError(
      `option ${group} must be an object of ${group} options (${Object.keys(OPTION_GROUPS[group]).join(', ')}), got ${String(values)}`,
    );
  }
  for (const key of Object.keys(values)) {
    if (Object.hasOwn(OPTION_GROUPS[group], key)) continue;
    throw new TypeError(
      `unknown option ${group}.${key}${whereItBelongs(key) ?? `; ${group} takes ${Object.keys(OPTION_GROUPS[group]).join(', ')}`}`,
    );
  }
}

/** `: it belongs at <path>` for a name some group has, or one of the flat shape; else undefined. */
function whereItBelongs(key: string): string | undefined {
  const group = (Object.keys(OPTION_GROUPS) as OptionGroupName[]).find((name) =>
    Object.hasOwn(OPTION_GROUPS[name], key),
  );
  const path = group ? `${group}.${key}` : FLAT_NAMES[key];
  if (!path) return undefined;
  const [outer, inner] = path.split('.');
  return `: it belongs at ${path}, as in GracefulShutdownModule.forRoot({ ${outer}: { ${inner}: … } })`;
}

function isGroup(key: string): key is OptionGroupName {
  return Object.hasOwn(OPTION_GROUPS, key);
}
