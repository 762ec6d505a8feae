import type { ToolCall } from '../agent/agent-message.js';
import type {
  AgentRelease,
  AgentVersionChange,
  NotRunCall,
  VersionChangePolicy,
} from '../agent/agent-release.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import { AgentVersionChangedError } from '../errors/agent-version-changed.error.js';
import type { DurableAgent } from '../handle/run-handle.interface.js';
import { agentFingerprint } from '../resume/agent-fingerprint.js';
import { screenPendingCalls } from '../resume/pending-call-screen.js';
import { EventLogger } from '../logging/event-logger.js';

const logger = new EventLogger('AgentRunService');

/** What a run request continues with, after the check of its agent's release. */
export interface ReleaseCheckResult {
  /** The release that runs the new attempt. */
  release: AgentRelease;
  /** The change the resume crosses; null when the same release continues, or nothing is resumed. */
  change: AgentVersionChange | null;
  /** What the version policy decided for the change; null without a change. */
  decision: 'adapt' | 'skip-pending' | 'migrated' | null;
  /** Pending calls not to run, by call id. */
  notRun: ReadonlyMap<string, NotRunCall>;
  /** The framework state to continue from: the saved one, or the policy's migration of it. */
  savedState: unknown;
}

/** What the check is asked about. */
export interface ReleaseCheckRequest {
  threadId: string;
  runId: string;
  agent: DurableAgent;
  /** The thread as read: its marker and last attempt say which release wrote the run. */
  thread: ThreadRecord | null;
  /** The calls the resume would run before the first model call. */
  pending: readonly ToolCall[];
}

/**
 * Knows each agent's release (its `version` label and the fingerprint of its shape) and checks a
 * resume against the release that wrote the interrupted attempt: a change goes through the
 * agent's `onVersionChange` policy (`refuse` throws `AgentVersionChangedError`, writing
 * nothing), and the pending calls are screened, so a call whose tool is gone or whose arguments
 * the tool's current schema refuses is answered "not run" instead of being run.
 */
export class AgentReleaseCheck {
  private readonly releases = new WeakMap<DurableAgent, AgentRelease>();

  constructor(
    private readonly defaults: { agentVersion: string; onVersionChange: VersionChangePolicy },
  ) {}

  /** The agent's release: computed once per agent. */
  releaseOf(agent: DurableAgent): AgentRelease {
    let release = this.releases.get(agent);
    if (!release) {
      release = {
        version: agent.version ?? this.defaults.agentVersion,
        fingerprint: agentFingerprint(agent.describe?.()),
      };
      this.releases.set(agent, release);
    }
    return release;
  }

  /** Checks a run request that resumes or continues `thread` (see the class). */
  async check({
    threadId,
    runId,
    agent,
    thread,
    pending,
  }: ReleaseCheckRequest): Promise<ReleaseCheckResult> {
    const release = this.releaseOf(agent);
    const savedState = thread?.runState ?? null;
    const from = interruptedRelease(thread);
    const changed =
      from !== null &&
      (from.version !== release.version || from.fingerprint !== release.fingerprint);
    const change: AgentVersionChange | null = changed
      ? { threadId, runId, from, to: release, pendingToolCalls: pending, savedState }
      : null;
    const decision = change
      ? await decide(agent.onVersionChange ?? this.defaults.onVersionChange, change)
      : 'adapt';
    if (decision === 'refuse') {
      logger.warn('resume refused by the version policy', {
        threadId,
        runId,
        fromVersion: change!.from.version,
        toVersion: release.version,
      });
      throw new AgentVersionChangedError(threadId, change!.from.version, release.version);
    }
    const screen = {
      hasTool: (name: string) => agent.toolTraits(name) !== undefined,
      checkToolInput: agent.checkToolInput?.bind(agent),
    };
    const releases = {
      from: from?.version ?? release.version,
      to: release.version,
      skipAll: decision === 'skip-pending',
    };
    const notRun = await screenPendingCalls(pending, screen, releases);
    const migrated = typeof decision === 'object';
    return {
      release,
      change,
      decision: change ? (migrated ? 'migrated' : decision) : null,
      notRun,
      savedState: migrated ? decision.state : savedState,
    };
  }
}

/** The release that wrote the interrupted attempt: its marker's, else its run record's; null when unknown (a release before 0.8). */
function interruptedRelease(thread: ThreadRecord | null): AgentRelease | null {
  const marker = thread?.interrupt;
  if (marker?.agentVersion && marker.agentFingerprint)
    return { version: marker.agentVersion, fingerprint: marker.agentFingerprint };
  const run = thread?.lastRun;
  if (run?.agentVersion && run.agentFingerprint)
    return { version: run.agentVersion, fingerprint: run.agentFingerprint };
  return null;
}

async function decide(policy: VersionChangePolicy, change: AgentVersionChange) {
  return typeof policy === 'function' ? await policy(change) : policy;
}
