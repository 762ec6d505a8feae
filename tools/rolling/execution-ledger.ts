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

/**
 * Every execution of the demo tool across all instances, collected from the `demo tool started`
 * lines the instances print (their JSON log). It is the ground truth of work done, independent
 * of what the store says, so that duplicated work cannot hide behind a tidy history.
 */
export class ExecutionLedger {
  readonly executions: ToolExecution[] = [];

  /** A line printer for one instance's stdout: keeps the demo tool's start lines, ignores the rest. */
  reader(instance: string): (line: string) => void {
    return (line) => {
      const m = logLineWith(line, 'demo tool started');
      if (m?.context !== 'DemoTool' || !m.threadId || !m.toolCallId) return;
      this.executions.push({ instance, threadId: m.threadId, toolCallId: m.toolCallId, step: Number(m.step), startedAt: Number(m.time) });
    };
  }
}
