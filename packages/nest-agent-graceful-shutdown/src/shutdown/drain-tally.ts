import { StopReason } from '../agent/stop-reason.js';

/** How the runs that ended during a shutdown ended: the counts of its `runs drained` line. */
export interface DrainCounts {
  completed: number;
  interrupted: number;
  canceled: number;
  awaitingApproval: number;
  /** Failed, stopped at the step limit, or ended without a known reason. */
  failed: number;
}

/**
 * Counts the runs that end while a shutdown is under way, by how each ended: a run the drain
 * let finish, one a drain-time check stopped at a safe point, one stopped when the drain ran
 * out, one a user canceled meanwhile.
 */
export class DrainTally {
  private readonly counts: DrainCounts = { completed: 0, interrupted: 0, canceled: 0, awaitingApproval: 0, failed: 0 };

  /** Counts one run's end. */
  count(stopReason: StopReason | undefined): void {
    this.counts[keyOf(stopReason)]++;
  }

  /** The counts so far. */
  get totals(): DrainCounts {
    return { ...this.counts };
  }
}

function keyOf(stopReason: StopReason | undefined): keyof DrainCounts {
  switch (stopReason) {
    case StopReason.Completed:
      return 'completed';
    case StopReason.Interrupted:
      return 'interrupted';
    case StopReason.Canceled:
      return 'canceled';
    case StopReason.AwaitingApproval:
      return 'awaitingApproval';
    default:
      return 'failed';
  }
}
