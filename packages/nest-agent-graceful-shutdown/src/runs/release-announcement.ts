import { EventType, type BaseEvent } from '@ag-ui/core';
import type { RunEventSink } from '../agent/run-events.js';
import { EventLogger } from '../logging/event-logger.js';
import type { AgentRunSpec } from './agent-run.types.js';

/** The name of the CUSTOM event that opens a run resumed across a change of its agent. */
export const AGENT_VERSION_CHANGED_EVENT = 'agent_version_changed';

const logger = new EventLogger('AgentRun');

/**
 * Tells a resumed run's stream, the log and the metrics that it crosses a change of its agent,
 * and which pending calls it answered "not run" and why: a CUSTOM `agent_version_changed`
 * event `{from, to, decision, notRun: [{toolCallId, toolName, reason}]}` after `RUN_STARTED`
 * (`decision`: `adapt`, `skip-pending` or `migrated`, what the version policy did), a warn line
 * per call. Nothing when the same release continues and every pending call runs.
 */
export function announceRelease(
  spec: Pick<AgentRunSpec, 'threadId' | 'runId' | 'release' | 'telemetry'>,
  emit: RunEventSink,
): void {
  const { threadId, runId, telemetry } = spec;
  const { agent, change, decision, notRun } = spec.release;
  if (!change && notRun.length === 0) return;
  const from = change?.from ?? agent;
  if (change) {
    const fingerprints = { fromFingerprint: from.fingerprint, toFingerprint: agent.fingerprint };
    const versions = { fromVersion: from.version, toVersion: agent.version };
    logger.warn('run resumed across agent versions', {
      threadId,
      runId,
      ...versions,
      ...fingerprints,
      decision,
    });
    telemetry.resumedAcrossVersions(from.version, agent.version);
  }
  for (const { call, reason } of notRun) {
    const versions = { fromVersion: from.version, toVersion: agent.version };
    logger.warn('tool call not run', {
      threadId,
      runId,
      tool: call.name,
      toolCallId: call.id,
      reason,
      ...versions,
    });
    telemetry.toolCallNotRun(call.name, reason);
  }
  const value = {
    from,
    to: agent,
    decision: decision ?? 'adapt',
    notRun: notRun.map(({ call, reason }) => ({
      toolCallId: call.id,
      toolName: call.name,
      reason,
    })),
  };
  emit({ type: EventType.CUSTOM, name: AGENT_VERSION_CHANGED_EVENT, value } as BaseEvent);
}
