import type { RunHandle } from '../handle/run-handle.interface.js';
import type { Usage } from './ai-sdk-types.js';

/** Adds one model call's tokens to the run's total, when the provider reported them. */
export function reportUsage(handle: RunHandle, usage: Usage | undefined): void {
  const prompt = usage?.inputTokens.total;
  const completion = usage?.outputTokens.total;
  if (prompt === undefined && completion === undefined) return;
  handle.reportUsage({
    promptTokens: prompt ?? 0,
    completionTokens: completion ?? 0,
    totalTokens: (prompt ?? 0) + (completion ?? 0),
  });
}
