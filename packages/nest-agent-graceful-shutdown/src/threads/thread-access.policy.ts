import type { ThreadRecord } from '../contracts/session-records.js';

/**
 * Who may run, read and stop a thread. The host provides its own (teams, shared threads,
 * admins) through the module's `threadAccess` option; a refused user gets 403.
 */
export interface ThreadAccessPolicy {
  /** True when `userId` may use `thread`. A thread is created by its first run's user. */
  canAccess(userId: string, thread: ThreadRecord): boolean | Promise<boolean>;
}

/** The default policy: a thread belongs to the user who created it, and to no one else. */
export class CreatorOwnsThread implements ThreadAccessPolicy {
  canAccess(userId: string, thread: ThreadRecord): boolean {
    return thread.ownerId === userId;
  }
}

export { THREAD_ACCESS_POLICY } from '../tokens/graceful-shutdown.tokens.js';
