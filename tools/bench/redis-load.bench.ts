import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import { RedisSignalBus } from 'nest-agent-graceful-shutdown/redis';
import type { Unsubscribe } from 'nest-agent-graceful-shutdown/store';
import { withRedisClient, withRedisServer } from './bench-services';
import { SILENT_LOGGER, verdict } from './bench-stats';
import { renderTable } from './bench-table';
import { PollingCancelBaseline, type CancelTransport } from './polling-cancel-baseline';

/** The run counts and timing of the Redis-load benchmark. */
export interface RedisLoadOptions {
  /** In-flight runs per measurement; the first and last are compared. */
  runCounts: readonly number[];
  /** How long the instance idles while its commands are counted. */
  windowMs: number;
  /** Pause between subscribing and counting, so connection setup falls outside the window. */
  settleMs: number;
  /** The baseline's poll interval. */
  pollIntervalMs: number;
}

/** Commands one idle instance with `runs` in-flight runs made Redis process. */
export interface RedisLoadRow {
  implementation: string;
  runs: number;
  commands: number;
  windowMs: number;
  perSecond: number;
}

/** What the Redis-load benchmark found. */
export interface RedisLoadResult {
  options: RedisLoadOptions;
  rows: RedisLoadRow[];
}

/** An idle bus may send nothing at all: "same order" then allows this many commands/s on top. */
const ABSOLUTE_ALLOWANCE_PER_S = 1;

async function commandsProcessed(probe: Redis): Promise<number> {
  const found = /total_commands_processed:(\d+)/.exec(await probe.info('stats'));
  if (!found) throw new Error('INFO stats has no total_commands_processed');
  return Number(found[1]);
}

/** One instance with `runs` runs listening for a cancel that never comes, counted from the server side. */
async function measureOne(
  implementation: string,
  transport: CancelTransport,
  runs: number,
  probe: Redis,
  probeCost: number,
  options: RedisLoadOptions,
): Promise<RedisLoadRow> {
  const unsubscribes: Unsubscribe[] = [];
  try {
    await transport.connect();
    for (let i = 0; i < runs; i++)
      unsubscribes.push(transport.onCancel(`load-thread-${i}`, `run-${i}`, () => undefined));
    await sleep(options.settleMs);
    const before = await commandsProcessed(probe);
    const startedAt = performance.now();
    await sleep(options.windowMs);
    const after = await commandsProcessed(probe);
    const windowMs = performance.now() - startedAt;
    const commands = Math.max(0, after - before - probeCost);
    return { implementation, runs, commands, windowMs, perSecond: commands / (windowMs / 1000) };
  } finally {
    unsubscribes.forEach((unsubscribe) => unsubscribe());
    await transport.close();
  }
}

/**
 * For each run count, a fresh bus instance, then a fresh polling instance, idles on one
 * redis-server while a separate client reads the server's command counter around the window.
 */
export async function measureRedisLoad(options: RedisLoadOptions): Promise<RedisLoadResult> {
  return withRedisServer((redis) =>
    withRedisClient(redis.url, async (probe) => {
      // What one counter read adds to the counter itself, found while nothing else is connected.
      const first = await commandsProcessed(probe);
      const probeCost = (await commandsProcessed(probe)) - first;
      const rows: RedisLoadRow[] = [];
      for (const runs of options.runCounts) {
        const bus = new RedisSignalBus({
          url: redis.url,
          keyPrefix: 'bench-load:',
          logger: SILENT_LOGGER,
        });
        rows.push(await measureOne('RedisSignalBus', bus, runs, probe, probeCost, options));
      }
      for (const runs of options.runCounts) {
        const polling = new PollingCancelBaseline({
          url: redis.url,
          keyPrefix: 'bench-load:',
          intervalMs: options.pollIntervalMs,
        });
        rows.push(
          await measureOne(
            `polling baseline (${options.pollIntervalMs} ms)`,
            polling,
            runs,
            probe,
            probeCost,
            options,
          ),
        );
      }
      return { options, rows };
    }),
  );
}

/** The commands/s table and whether the bus's load stayed of the same order as its runs grew. */
export function redisLoadReport(result: RedisLoadResult): string {
  const { options, rows } = result;
  const table = renderTable(
    [
      { heading: 'implementation' },
      { heading: 'in-flight runs', align: 'right' },
      { heading: 'commands in window', align: 'right' },
      { heading: 'commands/s', align: 'right' },
    ],
    rows.map((r) => [r.implementation, String(r.runs), String(r.commands), r.perSecond.toFixed(1)]),
  );
  const fewest = options.runCounts[0];
  const most = options.runCounts[options.runCounts.length - 1];
  const rate = (implementation: string, runs: number) =>
    rows.find((r) => r.implementation.startsWith(implementation) && r.runs === runs)?.perSecond ??
    NaN;
  const [busFew, busMany] = [rate('RedisSignalBus', fewest), rate('RedisSignalBus', most)];
  const [pollFew, pollMany] = [rate('polling', fewest), rate('polling', most)];
  const limit = 10 * busFew + ABSOLUTE_ALLOWANCE_PER_S;
  return [
    `(d) Redis load per instance: real redis-server, one idle instance with N runs listening for a cancel;`,
    `    server-side INFO total_commands_processed over ${(options.windowMs / 1000).toFixed(0)} s, read by a separate client (its own reads subtracted)`,
    '',
    table,
    '',
    `bus same order at ${most} as at ${fewest} runs (<= 10 x ${busFew.toFixed(1)} + ${ABSOLUTE_ALLOWANCE_PER_S} = ${limit.toFixed(1)} commands/s): ` +
      `${busMany.toFixed(1)} commands/s  ${verdict(busMany <= limit)}`,
    `polling grows ${(pollMany / pollFew).toFixed(0)}x from ${fewest} to ${most} runs (expected ~${(most / fewest).toFixed(0)}x: one GET per run per interval)`,
  ].join('\n');
}
