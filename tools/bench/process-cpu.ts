import { readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` (`USER_HZ`, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * The fields of a `/proc/<pid>/stat` line after the command name, which may hold spaces and
 * parentheses: index 0 is the state, 1 the parent pid, 11 `utime`, 12 `stime`.
 */
export function statFieldsOf(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The fields of `/proc/<pid>/stat` after the command name; undefined once the process ended. */
export function statFields(pid: number): string[] | undefined {
  try {
    return statFieldsOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // the process ended meanwhile
  }
}

/** User plus system CPU, in microseconds, of stat fields as `statFieldsOf` splits them. */
export function cpuMicrosOf(fields: readonly string[]): number {
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
}

/**
 * CPU time, in microseconds, that one process used so far, every thread of it (Node's zlib
 * and crypto work runs on libuv's threads), read from `/proc` (Linux only; 10 ms resolution),
 * so a server's cost is measured from outside it without any probe inside.
 *
 * @returns undefined where `/proc` cannot be read or the process ended
 */
export function processCpuMicros(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields ? cpuMicrosOf(fields) : undefined;
}
