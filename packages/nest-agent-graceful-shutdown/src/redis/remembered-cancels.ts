import type { CancelSignal } from '../contracts/signal-bus.interface.js';
import type { RedisClient } from './redis-connection.js';
import { groupBySlot } from './redis-key-slot.js';
import type { RedisSignalWire } from './redis-signal-wire.js';

/**
 * The runs among `runs` whose cancel Redis still remembers (its key is set): what a subscriber
 * that was away may have missed, each with what its key holds (the cancel's payload, so a
 * replacement is kept; an older instance's `1` is a plain cancel). One `MGET` on a standalone
 * Redis; on a cluster, which reads keys of one slot per command, one per slot group, sent together.
 */
export async function rememberedCancels(
  commands: RedisClient,
  wire: RedisSignalWire,
  runs: readonly CancelSignal[],
): Promise<CancelSignal[]> {
  const keyOf = (run: CancelSignal) => wire.cancelKey(run.threadId, run.runId);
  const groups = commands.isCluster ? groupBySlot(runs, keyOf) : [[...runs]];
  const found = await Promise.all(groups.map((group) => commands.mget(group.map(keyOf))));
  return groups.flatMap((group, index) =>
    group.flatMap((run, at) => {
      const value = found[index][at];
      if (value === null) return [];
      const replacedBy = wire.decodeCancel(value)?.replacedBy;
      return [replacedBy ? { ...run, replacedBy } : run];
    }),
  );
}
