import type { AgentRelease, NotRunReason } from '../../agent/agent-release.js';

/** Where an attempt is interrupted, as a shutdown would interrupt it. */
export interface InterruptionPoint {
  /**
   * `pre-reasoning`, `pre-acting`: at that safe point; `mid-stream`: once the model's answer
   * has streamed its first delta; `mid-tool`: once the call's `started` record is durable, as
   * the tool runs.
   */
  kind: 'pre-reasoning' | 'pre-acting' | 'mid-stream' | 'mid-tool';
  /** 1-based: the nth point of its kind (for `mid-stream`, the reasoning round). */
  index: number;
  /** The tool of a `pre-acting` or `mid-tool` point. */
  tool?: string;
  /** How reports name it: `pre-acting#2 charge_card`. */
  label: string;
}

/** A pending call the resume answered "not run" instead of running it. */
export interface NotRunReport {
  /** The id of the pending call. */
  toolCallId: string;
  /** The tool it asked for. */
  tool: string;
  /** Why it was not run: its tool is gone, the new schema refuses its arguments, or the policy said so. */
  reason: NotRunReason;
}

/** What the version policy did at a resume on the other release. */
export interface VersionChangeReport {
  /** The release that wrote the interrupted attempt. */
  from: AgentRelease;
  /** The release that resumed it. */
  to: AgentRelease;
  /** The policy refused the resume (`AGENT_VERSION_CHANGED`): the thread stays interrupted. */
  refused: boolean;
}

/** One interruption point, interrupted and resumed, and what the checks found. */
export interface PointReport {
  /** E.g. `pre-reasoning#1`, `pre-acting#2 charge_card`, `mid-stream#1`, `mid-tool#1 charge_card`. */
  point: string;
  /** True when the resume ran on `next` (the second version of the agent). */
  acrossVersions: boolean;
  /** True when no check failed. */
  ok: boolean;
  /** Readable, one per broken rule; empty when `ok`. */
  failures: string[];
  /** The final answer of the resumed run (compared with the uninterrupted run's unless across versions). */
  finalAnswer?: string;
  /** Calls the resume answered "not run", with why. */
  notRun?: NotRunReport[];
  /** Set when the resume crossed a change of version or fingerprint. */
  versionChange?: VersionChangeReport;
}

/** What `verifyDurability` found. */
export interface DurabilityReport {
  /** One per interruption point (then again across versions, with `next`). */
  points: PointReport[];
  /** Every failure, each prefixed with its point (`uninterrupted run: …` for the first run). */
  failures: string[];
  /** The final answer of the uninterrupted run. */
  finalAnswer: string;
}
