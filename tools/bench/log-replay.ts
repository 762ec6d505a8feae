import type { LoggedEvent, RunEventLog, RunLogKey } from 'nest-agent-graceful-shutdown/store';
import { timed } from './bench-stats';

/**
 * Milliseconds of one replay of a run's whole log in pages of `pageSize`, as a join reads it;
 * throws if it did not see `expected` events.
 */
export async function replayLog(
  log: RunEventLog,
  run: RunLogKey,
  expected: number,
  pageSize: number,
): Promise<number> {
  const { value: seen, ms } = await timed(async () => {
    let seen = 0;
    for (
      let after = 0, page: LoggedEvent[] | null;
      (page = await log.read(run, after, pageSize))?.length;
      after = page[page.length - 1].id
    )
      seen += page.length;
    return seen;
  });
  if (seen !== expected) throw new Error(`a replay read ${seen} of ${expected} events`);
  return ms;
}
