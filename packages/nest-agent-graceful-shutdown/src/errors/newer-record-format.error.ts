import { AgentServiceError } from './agent-service.error.js';

/**
 * The thread's records were written by a newer release of the library, in a format this
 * instance does not understand, so it leaves the thread alone: it neither starts, resumes nor
 * repairs a run of it. Continue the thread on an instance of the newer release (after a
 * rollback, once that release is back).
 */
export class NewerRecordFormatError extends AgentServiceError {
  override readonly name = 'NewerRecordFormatError';

  constructor(
    readonly threadId: string,
    readonly formatVersion: number,
    readonly understoodVersion: number,
  ) {
    super(
      'RECORD_FORMAT_NEWER',
      409,
      `thread ${threadId} was written by a newer release (record format ${formatVersion}; this instance understands up to ${understoodVersion}): continue it on an instance of that release`,
    );
  }
}
