import { StopReason } from '../agent/stop-reason.js';

/** How the runs that ended during a shutdown ended: the counts of its `runs drained` line. */
export interface DrainCounts {
  completed: number;
  interrupted: number;
  canceled: number;
  awaitingApproval: number;
  /** Failed, stopped at the step limit, or ended without a known reason. */
  failed: number;
  /** Tokens of the model calls the shutdown cut off: `input` they were sent, `output` they had streamed (estimated where no usage was reported). */
  tokensDiscarded: { input: number; output: number };
}

/**
 * Counts the runs that end while a shutdown is under way, by how each ended: a run the drain
 * let finish, one a drain-time check stopped at a safe point, one stopped when the drain ran
 * out, one a user canceled meanwhile.
 */
export class DrainTally {
  private readonly counts: Omit<DrainCounts, 'tokensDiscarded'> = {
    completed: 0,
    interrupted: 0,
    canceled: 0,
    awaitingApproval: 0,
    failed: 0,
  };
  private readonly tokens = { input: 0, output: 0 };

  /** Counts one run's end. */
  count(stopReason: StopReason | undefined): void {
    this.counts[keyOf(stopReason)]++;
  }

  /** Counts the tokens of a model call the shutdown cut off. */
  discarded(tokens: { input: number; output: number }): void {
    this.tokens.input += tokens.input;
    this.tokens.output += tokens.output;
  }

  /** The counts so far. */
  get totals(): DrainCounts {
    return { ...this.counts, tokensDiscarded: { ...this.tokens } };
  }
}

function keyOf(stopReason: StopReason | undefined): keyof Omit<DrainCounts, 'tokensDiscarded'> {
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
