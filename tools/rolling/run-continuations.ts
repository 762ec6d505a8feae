import { logLineWith } from './service-log-line';

/** One interrupted run an instance continued on its own (resume mode `auto`), as it logged it. */
export interface RunContinuation {
  instance: string;
  threadId: string;
  runId: string;
}

/**
 * Every run an instance took over from another one, collected from the `continuing interrupted
 * run` lines the instances print: the evidence that a run's events came from more than one
 * process, independent of what its client saw.
 */
export class RunContinuations {
  readonly continuations: RunContinuation[] = [];

  /** A line printer for one instance's stdout: keeps the continuation lines, ignores the rest. */
  reader(instance: string): (line: string) => void {
    return (line) => {
      const m = logLineWith(line, 'continuing interrupted run');
      if (!m?.threadId || !m.runId) return;
      this.continuations.push({ instance, threadId: m.threadId, runId: m.runId });
    };
  }

  /** The instances that continued `runId` of `threadId`, in order (empty: it ran on one instance). */
  of(threadId: string, runId: string): string[] {
    return this.continuations
      .filter((c) => c.threadId === threadId && c.runId === runId)
      .map((c) => c.instance);
  }
}
