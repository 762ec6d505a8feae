import { AgentServiceError } from './agent-service.error.js';

/**
 * The thread's interrupted run was written by another release of its agent, and the agent's
 * `onVersionChange` policy refuses to resume it here. Nothing was written: the thread stays
 * interrupted, to be resumed by an instance of the release that wrote it (or by this one once
 * the policy allows it).
 */
export class AgentVersionChangedError extends AgentServiceError {
  override readonly name = 'AgentVersionChangedError';

  constructor(
    readonly threadId: string,
    /** The release that wrote the interrupted attempt. */
    readonly fromVersion: string,
    /** The release asked to resume it. */
    readonly toVersion: string,
  ) {
    super(
      'AGENT_VERSION_CHANGED',
      409,
      `thread ${threadId} was interrupted under release ${fromVersion} of its agent; release ${toVersion} does not resume it (its onVersionChange policy refuses)`,
      { threadId, fromVersion, toVersion },
    );
  }
}
