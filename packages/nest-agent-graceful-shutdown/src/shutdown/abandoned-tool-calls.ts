import type { EventLogger } from '../logging/event-logger.js';
import type { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import type { RunningToolCalls } from '../lifecycle/running-tool-calls.js';

/**
 * At the end of a shutdown every run is saved, but a tool that ignored its abort may still be
 * running, and the process exits under it. Its outcome is already recorded as unknown (a resume
 * re-runs it only if it is idempotent): each such call is named once, at warn, and counted.
 * Returns how many.
 */
export function reportAbandonedToolCalls(
  running: RunningToolCalls,
  logger: EventLogger,
  telemetry?: AgentTelemetry,
): number {
  const abandoned = running.list();
  for (const { threadId, runId, call } of abandoned) {
    logger.warn('tool call abandoned', { threadId, runId, toolCallId: call.id, tool: call.name });
    telemetry?.notify('toolCallAbandoned', threadId, runId, call.name);
  }
  return abandoned.length;
}
