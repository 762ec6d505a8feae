import type { AttemptOutcome } from './run-attempt';

/** The fields of an AG-UI event the proof reads. */
export interface StreamEvent {
  type: string;
  code?: string;
  messageId?: string;
  parentMessageId?: string;
  stepName?: string;
}

/** Follows a run's AG-UI events and keeps what the proof checks: whether it started, how it ended, which messages it reported finished. */
export class StreamReader {
  terminal: AttemptOutcome | undefined;
  started = false;
  readonly finished: string[] = [];
  private readonly inStep = new Set<string>();

  /** Takes the run's next event. */
  read(event: StreamEvent): void {
    switch (event.type) {
      case 'RUN_STARTED':
        this.started = true;
        break;
      case 'STEP_STARTED':
        if (event.stepName === 'reasoning') this.inStep.clear();
        break;
      case 'TEXT_MESSAGE_START':
        if (event.messageId) this.inStep.add(event.messageId);
        break;
      case 'TOOL_CALL_START':
        if (event.parentMessageId) this.inStep.add(event.parentMessageId);
        break;
      case 'STEP_FINISHED':
        // The answer is saved before its step is reported finished; a cut-off answer never is.
        if (event.stepName === 'reasoning') this.finished.push(...this.inStep);
        this.inStep.clear();
        break;
      case 'TOOL_CALL_RESULT':
        if (event.messageId) this.finished.push(event.messageId);
        break;
      case 'RUN_FINISHED':
        this.terminal = { kind: 'finished' };
        break;
      case 'RUN_ERROR':
        this.terminal = { kind: 'run-error', code: event.code ?? 'UNKNOWN' };
        break;
    }
  }
}
