import type { AgentMessage } from '../agent/agent-message.js';
import type { StepProgress } from '../contracts/step-checkpointer.interface.js';
import type { StepCommit } from '../contracts/step-commit.js';
import type { RunAnswerStream } from './answer-stream.js';
import { StepWrites } from './step-writes.js';

/** A completed answer with tool calls that is not durable yet. */
interface HeldAnswer {
  message: AgentMessage;
  answer: RunAnswerStream;
}

/**
 * One run's writes, in order (see {@link StepWrites}), with one answer held back at most: an
 * answer with tool calls goes in the run's next write, which is its first call's started record
 * once that call passed its pre-acting safe point (one write instead of two), or the answer alone
 * when the run stops or reasons again first. No call runs before its answer is durable, because
 * a call runs only after its started record is.
 */
export class RunWrites {
  private readonly writes: StepWrites;
  private held?: HeldAnswer;

  /**
   * @param write makes one step durable.
   * @param progress where the run is, recorded with each write.
   * @param answerWritten called once a held answer is durable, in the write's order.
   */
  constructor(
    write: (step: StepCommit, progress: StepProgress) => Promise<void>,
    private readonly progress: () => StepProgress,
    private readonly answerWritten: (message: AgentMessage, answer: RunAnswerStream) => void,
  ) {
    this.writes = new StepWrites(write);
  }

  /** True while an answer waits for the run's next write. */
  get holding(): boolean {
    return this.held !== undefined;
  }

  /** Keeps `message` for the run's next write. */
  hold(message: AgentMessage, answer: RunAnswerStream): void {
    this.held = { message, answer };
  }

  /** Writes `step` after every write asked for before it, with a held answer first in the same write. */
  async submit(step: StepCommit): Promise<void> {
    const held = this.held;
    this.held = undefined;
    await this.writes.submit(
      held ? { ...step, messages: [held.message, ...(step.messages ?? [])] } : step,
      this.progress(),
    );
    if (held) this.answerWritten(held.message, held.answer);
  }

  /** Makes a held answer durable on its own (a stop, or a next step, before any of its calls started). */
  async writeHeld(): Promise<void> {
    if (this.held) await this.submit({});
  }

  /** Resolves once every write asked for has settled. */
  idle(): Promise<void> {
    return this.writes.idle();
  }
}
