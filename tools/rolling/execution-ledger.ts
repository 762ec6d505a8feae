import { logLineWith } from './service-log-line';

/** One start of the demo tool, as an instance logged it. */
export interface ToolExecution {
  instance: string;
  threadId: string;
  toolCallId: string;
  step: number;
  /** Epoch ms of the log line. */
  startedAt: number;
}

/** One effect the demo tool made (its ledger recorded it new), as an instance logged it. */
export interface ToolEffect {
  instance: string;
  threadId: string;
  toolCallId: string;
  idempotencyKey: string;
  fencingToken: number;
}

/**
 * Every execution of the demo tool across all instances, collected from the `demo tool started`
 * lines the instances print (their JSON log). It is the ground truth of work done, independent
 * of what the store says, so that duplicated work cannot hide behind a tidy history.
 */
export class ExecutionLedger {
  readonly executions: ToolExecution[] = [];
  /** Every effect recorded new (`demo tool finished` without `duplicate`); a release without the demo ledger logs none. */
  readonly effects: ToolEffect[] = [];
  /** How many late effects the demo ledger refused by their fencing token (`demo tool effect refused`). */
  refusals = 0;

  /** A line printer for one instance's stdout: keeps the demo tool's start, effect and refusal lines, ignores the rest. */
  reader(instance: string): (line: string) => void {
    return (line) => {
      this.readEffect(instance, line);
      if (logLineWith(line, 'demo tool effect refused')?.context === 'DemoTool') this.refusals++;
      const m = logLineWith(line, 'demo tool started');
      if (m?.context !== 'DemoTool' || !m.threadId || !m.toolCallId) return;
      this.executions.push({
        instance,
        threadId: m.threadId,
        toolCallId: m.toolCallId,
        step: Number(m.step),
        startedAt: Number(m.time),
      });
    };
  }

  private readEffect(instance: string, line: string): void {
    const m = logLineWith(line, 'demo tool finished');
    if (
      m?.context !== 'DemoTool' ||
      !m.threadId ||
      !m.toolCallId ||
      !m.idempotencyKey ||
      m.duplicate !== false
    )
      return;
    this.effects.push({
      instance,
      threadId: m.threadId,
      toolCallId: m.toolCallId,
      idempotencyKey: m.idempotencyKey,
      fencingToken: Number(m.fencingToken),
    });
  }
}
