import type { LanguageModel, LanguageModelMiddleware, streamText, ToolSet } from 'ai';

/** The language-model interface of AI SDK 6 (specification v3), derived from `ai` so no provider package is needed. */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;

type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;
type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;

/** What a model's `doStream` resolves with. */
export type StreamResult = Awaited<ReturnType<Parameters<WrapStream>[0]['doStream']>>;
/** One part of a model's stream. */
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
/** What a model's `doGenerate` resolves with. */
export type GenerateResult = Awaited<ReturnType<Parameters<WrapGenerate>[0]['doGenerate']>>;
/** A model's token usage. */
export type Usage = GenerateResult['usage'];

/**
 * The settings of an AI SDK agent: what you would pass to `streamText` (or a `ToolLoopAgent`),
 * less the conversation and the abort signal, which the run provides.
 */
export type AiSdkAgentSettings<TOOLS extends ToolSet = ToolSet> = Omit<Parameters<typeof streamText<TOOLS>>[0], 'messages' | 'prompt' | 'abortSignal'>;
