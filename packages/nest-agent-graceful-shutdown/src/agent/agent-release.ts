import type { ToolCall } from './agent-message.js';

/**
 * What a resume of an agent's run depends on: the tools it can call, with the input schema of
 * each (a JSON Schema, or whatever the framework's schema turns into as JSON), and for a graph
 * agent its nodes and state channels. The module fingerprints it, so a resume knows when the
 * code that continues a run is not the code that started it.
 */
export interface AgentShape {
  tools: ReadonlyArray<{ name: string; inputSchema: unknown }>;
  /** A graph agent's node names and state channel names. */
  graph?: { nodes: readonly string[]; channels: readonly string[] };
}

/** The release of an agent that wrote a run attempt, as it is recorded with the attempt. */
export interface AgentRelease {
  /** The agent's `version` label: the app's release (e.g. its `package.json` version). */
  version: string;
  /** A hash of the agent's `AgentShape`: what a resume depends on. */
  fingerprint: string;
}

/** The answer of a framework's own input check for one tool call. */
export type ToolInputCheck = { ok: true } | { ok: false; error: string };

/** A resume whose agent is not the release that wrote the interrupted attempt. */
export interface AgentVersionChange {
  threadId: string;
  runId: string;
  /** The release that wrote the interrupted attempt. */
  from: AgentRelease;
  /** The release asked to continue it. */
  to: AgentRelease;
  /** The calls the resume would run before the first model call. */
  pendingToolCalls: readonly ToolCall[];
  /** The framework state the interrupted attempt saved (a graph checkpoint), if any. */
  savedState: unknown;
}

/**
 * What to do with a resume across a change. `adapt`: go on, not running a pending call whose
 * tool is gone or whose arguments the tool's current schema refuses. `refuse`: do not resume
 * here (409 `AGENT_VERSION_CHANGED`); the thread stays interrupted for an instance of the
 * release that wrote it. `skip-pending`: go on without running any pending call (answered
 * "not run"). `{ state }`: adapt, with the framework state replaced by a migrated one.
 */
export type VersionChangeDecision = 'adapt' | 'refuse' | 'skip-pending' | { state: unknown };

/**
 * An agent's rule for resumes across a version change: a decision, or a function that decides
 * (or migrates the saved state) per change.
 *
 * @example
 * onVersionChange: (change) => (change.from.version.startsWith('1.') ? 'refuse' : 'adapt')
 */
export type VersionChangePolicy =
  | 'adapt'
  | 'refuse'
  | 'skip-pending'
  | ((change: AgentVersionChange) => VersionChangeDecision | Promise<VersionChangeDecision>);

/** Why a pending call was not run at a resume (`agent_tool_calls_not_run_total{reason}`). */
export type NotRunReason = 'tool_removed' | 'invalid_arguments' | 'policy';

/** A pending call answered without running, at a resume across a version change. */
export interface NotRunCall {
  call: ToolCall;
  reason: NotRunReason;
  /** The tool result the model sees. */
  result: string;
}
