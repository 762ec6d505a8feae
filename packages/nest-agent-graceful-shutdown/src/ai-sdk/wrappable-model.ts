import type { WrappableModel } from './ai-sdk-types.js';
import type { InstalledAi } from './installed-ai.js';

/** The provider package that makes models for each major, named in the errors. */
const PROVIDER_HINT = { 6: '@ai-sdk/openai 3', 7: '@ai-sdk/openai 4' } as const;

/**
 * Checks that `model` is an instance the installed `ai` can wrap with the adapter's middleware.
 * A model id string (the AI Gateway) cannot be wrapped, and a model of the other major's
 * specification would stream parts the installed SDK does not read.
 *
 * @throws TypeError saying what to pass instead.
 */
export function wrappableModel(model: unknown, ai: InstalledAi): WrappableModel {
  const example = `e.g. createOpenAI().chat("gpt-4o-mini") from ${PROVIDER_HINT[ai.major]}`;
  if (typeof model === 'string') {
    throw new TypeError(
      `aiSdkAgent needs a model instance, not the model id "${model}": pass one made for AI SDK ${ai.major}, ${example}`,
    );
  }
  const spec = (model as { specificationVersion?: unknown } | null | undefined)
    ?.specificationVersion;
  if (typeof spec !== 'string' || !ai.modelSpecs.includes(spec)) {
    const accepted = ai.modelSpecs.join(' or ');
    throw new TypeError(
      `aiSdkAgent got a model of specification ${String(spec)}, but the installed ai ${ai.version} wraps only ${accepted} models: ` +
        `pass a model made for AI SDK ${ai.major}, ${example}${ai.major === 6 && spec === 'v4' ? ', or install ai@7' : ''}`,
    );
  }
  return model as WrappableModel;
}
