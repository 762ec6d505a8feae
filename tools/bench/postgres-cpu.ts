import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMicrosOf, statFields } from './process-cpu';

/**
 * CPU time, in microseconds, that a PostgreSQL cluster's processes used so far: the
 * postmaster and every process it started (backends, WAL writer, checkpointer, autovacuum),
 * read from `/proc` (Linux only; 10 ms resolution per process). A backend that exited is no
 * longer counted, so read while the connections of the work measured are still open.
 *
 * @param dataDir the cluster's data directory (its `postmaster.pid` names the postmaster)
 * @returns undefined where `/proc` cannot be read
 */
export function postgresCpuMicros(dataDir: string): number | undefined {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  let micros = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const fields = statFields(pid);
    // After the name: state (0), ppid (1) … utime (11), stime (12).
    if (!fields || (pid !== postmaster && Number(fields[1]) !== postmaster)) continue;
    found = true;
    micros += cpuMicrosOf(fields);
  }
  return found ? micros : undefined;
}
