import { streamText, wrapLanguageModel, type ToolSet } from 'ai';
import { CallAbortedError } from '../agent/abortable';
import type { DurableAgent, RunHandle, ToolTraits } from '../handle/run-handle.interface';
import type { AiSdkAgentSettings, LanguageModelV3 } from './ai-sdk-types';
import { durableMiddleware } from './durable-middleware';
import { durableTools, executeDirectly } from './durable-tools';
import { toModelMessages } from './model-messages';

/** What the module needs to know beside the AI SDK settings. */
export interface AiSdkAgentOptions {
  /** Per tool name: `idempotent`, `requiresApproval`, `expectedDurationMs`. A tool with the SDK's `needsApproval` requires approval. @default none */
  toolTraits?: Record<string, ToolTraits>;
  /** How long one model call is expected to take, in milliseconds (a drain does not start one that would outlast it). @default the module's `defaultStepDurationMs` */
  expectedReasoningMs?: number;
}

/**
 * Runs an AI SDK agent (the settings you give `streamText` or a `ToolLoopAgent`: model, tools,
 * system, stopWhen, …) under the module. Each step's model call is a pre-reasoning safe point
 * (a language-model middleware), each tool execution goes through the run's tool-call records,
 * the run's signal is the `abortSignal`, and the conversation is the stored one.
 *
 * @example
 * const agent = aiSdkAgent({ model: openai.chat('gpt-4o-mini'), tools: { weather }, stopWhen: stepCountIs(10) });
 * const run = await runs.start(userId, parseRunInput(body), agent);
 */
export function aiSdkAgent<TOOLS extends ToolSet>(settings: AiSdkAgentSettings<TOOLS>, options: AiSdkAgentOptions = {}): DurableAgent {
  return new AiSdkAgent(settings as unknown as AiSdkAgentSettings, options);
}

/** See `aiSdkAgent`. */
export class AiSdkAgent implements DurableAgent {
  private readonly tools: ToolSet;
  private readonly model: LanguageModelV3;

  constructor(
    private readonly settings: AiSdkAgentSettings,
    private readonly options: AiSdkAgentOptions = {},
  ) {
    this.tools = settings.tools ?? {};
    if (typeof settings.model === 'string' || settings.model.specificationVersion !== 'v3') {
      throw new TypeError('aiSdkAgent needs a model instance of AI SDK 6 (specification v3), e.g. openai.chat("gpt-4o-mini"), not a model id string');
    }
    this.model = settings.model;
  }

  toolTraits(name: string): ToolTraits | undefined {
    const tool = this.tools[name];
    const declared = this.options.toolTraits?.[name];
    if (!tool && !declared) return undefined;
    const sdkApproval = (tool as { needsApproval?: unknown } | undefined)?.needsApproval;
    return { ...(sdkApproval ? { requiresApproval: true } : {}), ...declared };
  }

  async run(handle: RunHandle): Promise<void> {
    // Tools learn which run calls them, unless you pass a context of your own.
    const context: unknown = this.settings.experimental_context ?? { threadId: handle.threadId, runId: handle.runId };
    await handle.prepare((call, signal) => executeDirectly(this.tools, call, signal, context));
    const result = streamText({
      // The resume message is a system message inside the conversation, on purpose.
      allowSystemInMessages: true,
      ...this.settings,
      model: wrapLanguageModel({ model: this.model, middleware: durableMiddleware(handle, this.options.expectedReasoningMs) }),
      tools: durableTools(this.tools, handle),
      messages: toModelMessages(handle.messages),
      abortSignal: handle.signal,
      experimental_context: context,
    });
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error;
    }
    // The SDK ends an aborted stream quietly.
    if (handle.signal.aborted) throw new CallAbortedError();
  }
}
