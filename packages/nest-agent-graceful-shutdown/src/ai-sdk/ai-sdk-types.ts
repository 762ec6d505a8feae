// Every type here is derived from the host's `ai`, so the same declarations read as AI SDK 7's
// types for an `ai` 7 user and as AI SDK 6's for an `ai` 6 user. What differs between the two
// majors is read loosely (`VersionedSettings`) and decided at run time (`installedAi`).
import type { LanguageModelMiddleware, streamText, ToolSet, wrapLanguageModel } from 'ai';

/** A model instance the installed `ai` can wrap: LanguageModelV4 or V3 with AI SDK 7, LanguageModelV3 with AI SDK 6. */
export type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];

type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;
type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;

/** What a model's `doStream` resolves with. */
export type StreamResult = Awaited<ReturnType<Parameters<WrapStream>[0]['doStream']>>;
/** One part of a model's stream (the parts the adapter reads have the same shape in v3 and v4). */
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
/** What a model's `doGenerate` resolves with. */
export type GenerateResult = Awaited<ReturnType<Parameters<WrapGenerate>[0]['doGenerate']>>;
/** A model's token usage. */
export type Usage = GenerateResult['usage'];
/** The options `streamText` takes. */
export type StreamTextOptions = Parameters<typeof streamText>[0];

/**
 * The settings of an AI SDK agent: what you would pass to `streamText` (or a `ToolLoopAgent`),
 * less the conversation and the abort signal, which the run provides. Typed by the `ai` you
 * installed (6 or 7).
 */
export type AiSdkAgentSettings<TOOLS extends ToolSet = ToolSet> = Omit<
  Parameters<typeof streamText<TOOLS>>[0],
  'messages' | 'prompt' | 'abortSignal'
>;

/**
 * The settings whose name or shape differ between the majors, read without either's types:
 * AI SDK 6 has one `experimental_context` for every tool; AI SDK 7 has a context per tool name
 * (`toolsContext`) and approval per tool name (`toolApproval`).
 */
export interface VersionedSettings {
  experimental_context?: unknown;
  toolsContext?: Record<string, unknown>;
  toolApproval?: unknown;
}
