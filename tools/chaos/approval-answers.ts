/** A human's answer to a tool call waiting for approval. */
export type ApprovalAnswer = 'approve' | 'reject';

/**
 * The answers the schedule gives one reviewed user, kept until the user's run waits for one: an
 * answer that comes while nothing waits is used at the next pause. Once `release()`d (the
 * settle phase), a wait without an answer approves on its own.
 *
 * @example
 * const answers = new ApprovalAnswers();
 * answers.give('reject');
 * await answers.next(10_000); // 'reject'
 */
export class ApprovalAnswers {
  private readonly queue: ApprovalAnswer[] = [];
  private released = false;
  private wake?: () => void;

  /** The schedule answers. */
  give(answer: ApprovalAnswer): void {
    this.queue.push(answer);
    this.wake?.();
  }

  /** From now on a wait without a scheduled answer approves at once. */
  release(): void {
    this.released = true;
    this.wake?.();
  }

  /** The next answer: a scheduled one, else `approve` once released or after `timeoutMs`. */
  async next(timeoutMs: number): Promise<{ answer: ApprovalAnswer; by: 'schedule' | 'user' }> {
    let timer: NodeJS.Timeout | undefined;
    try {
      while (this.queue.length === 0 && !this.released) {
        const woken = new Promise<'woken' | 'timeout'>((resolve) => {
          this.wake = () => resolve('woken');
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
          timer.unref();
        });
        if ((await woken) === 'timeout') break;
        clearTimeout(timer);
      }
    } finally {
      clearTimeout(timer);
      this.wake = undefined;
    }
    const answer = this.queue.shift();
    return answer ? { answer, by: 'schedule' } : { answer: 'approve', by: 'user' };
  }
}
