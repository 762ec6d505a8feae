import type { StepCommit } from '../contracts/step-commit.js';
import type { StepProgress } from '../contracts/step-checkpointer.interface.js';

interface Part {
  step: StepCommit;
  progress: StepProgress;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Runs one run's store writes one after another, in call order, even when its tool calls run
 * concurrently: a thread's messages keep a single order and no two writes of a run race. The
 * writes asked for while one is in flight go together in the next, as one step commit (their
 * messages and started calls in order, the latest state), so a concurrent step costs one write
 * per round rather than one per call.
 */
export class StepWrites {
  private queued: Part[] = [];
  private draining?: Promise<void>;

  /** @param write makes one (merged) step durable; `progress` is the latest of its parts. */
  constructor(
    private readonly write: (step: StepCommit, progress: StepProgress) => Promise<void>,
  ) {}

  /** Writes `step` after every write asked for before it; settles once it is durable (or refused). */
  submit(step: StepCommit, progress: StepProgress): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ step, progress, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /** Resolves once every write asked for has settled. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const parts = this.queued;
      this.queued = [];
      try {
        await this.write(mergeSteps(parts), parts[parts.length - 1].progress);
        for (const part of parts) part.resolve();
      } catch (error) {
        for (const part of parts) part.reject(error);
      }
    }
    this.draining = undefined;
  }
}

/** The parts as one commit: messages and started calls in the parts' order, the last state set. */
function mergeSteps(parts: readonly Part[]): StepCommit {
  if (parts.length === 1) return parts[0].step;
  const messages = parts.flatMap((part) => part.step.messages ?? []);
  const startedCalls = parts.flatMap((part) => part.step.startedCalls ?? []);
  const states = parts.filter((part) => part.step.state !== undefined);
  return {
    ...(messages.length ? { messages } : {}),
    ...(startedCalls.length ? { startedCalls } : {}),
    ...(states.length ? { state: states[states.length - 1].step.state } : {}),
  };
}
