import { dirname } from 'node:path';
import type { SdkFunctionTool } from './sdk-types.js';

/** What the SDK's parser made of a call's arguments. */
export type ParsedInput = { success: true; value: unknown } | { success: false; error: unknown };

/** The SDK's own input preparation: the parser `tool()` registered for the tool, undefined for a tool it did not make. */
type PrepareInput = (tool: SdkFunctionTool, input: string) => { result: ParsedInput } | undefined;

// A name, not a literal: the entry point is the SDK's, typed by no declared dependency of this package.
const ENTRY = '@openai/agents-core/utils/internal';

let loaded: Promise<PrepareInput | null> | undefined;

/**
 * The Agents SDK's own input parser for function tools (`prepareFunctionToolInput`, what its
 * runner uses before `invoke`): the zod, standard or JSON-Schema parser `tool()` built from the
 * tool's `parameters`. It is loaded in this build's module format, so it is the instance that
 * registered the host's tools. Null when the installed SDK has no such entry point.
 */
export function sdkInputParser(): Promise<PrepareInput | null> {
  loaded ??= load().catch(() => null);
  return loaded;
}

async function load(): Promise<PrepareInput | null> {
  const entry = (await importEntry()) as { prepareFunctionToolInput?: unknown };
  return typeof entry.prepareFunctionToolInput === 'function'
    ? (entry.prepareFunctionToolInput as PrepareInput)
    : null;
}

/**
 * `require` in the CommonJS build, `import` in the ES module build: the format the SDK's own
 * import here has. In CommonJS the entry is resolved from the `@openai/agents` the app loads, so
 * its own copy of `@openai/agents-core` is found when it is not hoisted beside this package.
 */
function importEntry(): Promise<unknown> {
  if (typeof require !== 'function') return import(ENTRY);
  const sdk = dirname(require.resolve('@openai/agents'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return Promise.resolve(require(require.resolve(ENTRY, { paths: [sdk] })));
}
