import type { ToolSet } from 'ai';
import type { VersionedSettings } from './ai-sdk-types.js';
import type { InstalledAi } from './installed-ai.js';

/** The run a tool call belongs to: what a tool gets as its context unless the settings give it one. */
export interface RunContext {
  threadId: string;
  runId: string;
}

/** The contexts the tools of one run get, in the form the installed `ai` passes them. */
export interface ToolContexts {
  /** The `streamText` setting that carries them: `experimental_context` (ai 6) or `toolsContext` (ai 7). */
  readonly setting: Record<string, unknown>;
  /** The execute option of a call of tool `name` run outside the SDK: `experimental_context` (ai 6) or `context` (ai 7). */
  option(name: string): Record<string, unknown>;
}

/**
 * Tools learn which run calls them, unless your settings give them a context of their own.
 * AI SDK 6 gives every tool the one `experimental_context`; AI SDK 7 gives each tool its own
 * entry of `toolsContext` as `context`, so there the run's ids fill the entries the settings leave out.
 */
export function toolContexts(
  ai: InstalledAi,
  settings: VersionedSettings,
  tools: ToolSet,
  run: RunContext,
): ToolContexts {
  if (ai.major === 6) {
    const context = settings.experimental_context ?? run;
    return {
      setting: { experimental_context: context },
      option: () => ({ experimental_context: context }),
    };
  }
  const contexts: Record<string, unknown> = {
    ...Object.fromEntries(Object.keys(tools).map((name) => [name, run])),
    ...settings.toolsContext,
  };
  return { setting: { toolsContext: contexts }, option: (name) => ({ context: contexts[name] }) };
}
