import { aiPackageVersion } from './ai-package-version.cjs';

/** The AI SDK majors the adapter supports, with what each one's `wrapLanguageModel` takes and speaks. */
const MAJORS = {
  // AI SDK 6 wraps only LanguageModelV3: a v4 model inside it would stream parts it cannot read.
  6: { modelSpecs: ['v3'], middlewareSpec: 'v3' },
  // AI SDK 7 adapts a v3 model to v4 itself (`asLanguageModelV4`), so both kinds can be wrapped.
  7: { modelSpecs: ['v4', 'v3'], middlewareSpec: 'v4' },
} as const;

/** The `ai` package the host installed, as far as the adapter depends on it. */
export interface InstalledAi {
  /** Its version, e.g. `7.0.173`. */
  readonly version: string;
  /** Its major version: 6 or 7. */
  readonly major: keyof typeof MAJORS;
  /** The `specificationVersion`s of the model instances it can wrap, the current one first. */
  readonly modelSpecs: readonly string[];
  /** The `specificationVersion` its language-model middleware declares. */
  readonly middlewareSpec: 'v3' | 'v4';
}

let installed: InstalledAi | undefined;

/**
 * Reads the version of the `ai` package that this library's import of `ai` resolves to (the host's),
 * once. The adapter calls the host's `streamText`, so what it may pass depends on that major.
 *
 * @throws TypeError when the installed major is not one the adapter supports.
 */
export function installedAi(): InstalledAi {
  if (installed) return installed;
  // The package file, not a feature probe: it names the version in the error when it is unsupported.
  const version = aiPackageVersion();
  const major = Number(version.split('.')[0]);
  if (major !== 6 && major !== 7) {
    throw new TypeError(
      `nest-agent-graceful-shutdown/ai-sdk supports ai 6 and 7, but ai ${version} is installed: install ai@7 (or ai@6)`,
    );
  }
  installed = { version, major, ...MAJORS[major] };
  return installed;
}
