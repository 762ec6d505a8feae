import type { ServiceExit, SpawnedService } from './spawned-service';

/** How a signalled instance ended. */
export interface SignalledExit {
  exit: ServiceExit;
  /** When the signal was sent (`performance.now()` in this process). */
  sentAtMs: number;
  /** From the signal sent to the exit seen; undefined if it had not exited by the deadline (then it was killed). */
  exitMs?: number;
}

/** Sends SIGTERM and waits up to `deadlineMs` for the exit; kills the process past it. */
export async function terminateAndTime(
  service: SpawnedService,
  deadlineMs: number,
): Promise<SignalledExit> {
  const sentAtMs = service.signal('SIGTERM');
  const exitInTime = await service.waitForExit(deadlineMs);
  const exit = exitInTime ?? (await service.kill());
  return { exit, sentAtMs, exitMs: exitInTime ? exitInTime.atMs - sentAtMs : undefined };
}

/**
 * What was wrong with a shutdown that should have exited 0 within `deadlineMs`, in words, with
 * the tail of `service`'s log for a bad exit code; undefined when nothing was. `who` names the instance.
 *
 * @example
 * exitProblem('the holder', signalled, 35_000, holder); // 'the holder exited with 1, expected 0\n…'
 */
export function exitProblem(
  who: string,
  { exit, exitMs }: SignalledExit,
  deadlineMs: number,
  service: SpawnedService,
): string | undefined {
  if (exitMs === undefined)
    return `${who} had not exited ${deadlineMs} ms after SIGTERM and was killed`;
  if (exit.code !== 0)
    return `${who} exited with ${exit.code ?? exit.signal}, expected 0\n${service.logs.slice(-2_000)}`;
  return undefined;
}

/** SIGTERM to exit as a table cell: `812 ms`, or `timed out` when the process was killed. */
export function exitTimeCell(exitMs: number | undefined): string {
  return exitMs === undefined ? 'timed out' : `${Math.round(exitMs)} ms`;
}
