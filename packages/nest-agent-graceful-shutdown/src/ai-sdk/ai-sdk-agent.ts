import { streamText, wrapLanguageModel, type ToolSet } from 'ai';
import { CallAbortedError } from '../agent/abortable.js';
import type { ToolCall } from '../agent/agent-message.js';
import type { AgentShape, ToolInputCheck, VersionChangePolicy } from '../agent/agent-release.js';
import type { DurableAgent, RunHandle, ToolTraits } from '../handle/run-handle.interface.js';
import type {
  AiSdkAgentSettings,
  StreamTextOptions,
  VersionedSettings,
  WrappableModel,
} from './ai-sdk-types.js';
import { aiSdkAgentShape } from './agent-shape.js';
import { durableMiddleware } from './durable-middleware.js';
import { durableTools, executeDirectly } from './durable-tools.js';
import { installedAi, type InstalledAi } from './installed-ai.js';
import { toModelMessages } from './model-messages.js';
import { answerRefusedCalls, refusedCallsMiddleware } from './refused-calls.js';
import { stopAwareOnError, type StreamErrorHandler } from './stop-aware-on-error.js';
import { sdkApproval, type SdkApproval } from './tool-approval.js';
import { toolContexts } from './tool-contexts.js';
import { checkSdkToolInput } from './tool-input-check.js';
import { wrappableModel } from './wrappable-model.js';

/** What the module needs to know beside the AI SDK settings. */
export interface AiSdkAgentOptions {
  /** Per tool name: `idempotent`, `requiresApproval`, `expectedDurationMs`. A tool the SDK would ask approval for (`needsApproval`, or AI SDK 7's `toolApproval`) requires approval. @default none */
  toolTraits?: Record<string, ToolTraits>;
  /** How long one model call is expected to take, in milliseconds (a drain does not start one that would outlast it). @default the module's `defaultStepDurationMs` */
  expectedReasoningMs?: number;
  /**
   * The agent's release label, recorded with every run attempt (e.g. your app's version): a
   * resume by another release follows `onVersionChange`. @default the module's `runs.agentVersion`
   */
  version?: string;
  /**
   * How a resume across a change of version or of the tools' shape goes on.
   * @default the module's `runs.onVersionChange` ('adapt')
   */
  onVersionChange?: VersionChangePolicy;
}

/**
 * Runs an AI SDK agent (the settings you give `streamText` or a `ToolLoopAgent`: model, tools,
 * system, stopWhen, …) under the module, with the `ai` you installed: AI SDK 7 (a model of
 * specification v4 or v3) or AI SDK 6 (v3). Each step's model call is a pre-reasoning safe point
 * (a language-model middleware), each tool execution goes through the run's tool-call records,
 * the run's signal is the `abortSignal`, and the conversation is the stored one.
 *
 * @throws TypeError when the model is a model id string or of a specification the installed `ai` cannot wrap.
 * @example
 * const agent = aiSdkAgent({ model: openai.chat('gpt-4o-mini'), tools: { weather }, stopWhen: stepCountIs(10) });
 * const run = await runs.start(userId, parseRunInput(body), agent);
 */
export function aiSdkAgent<TOOLS extends ToolSet>(
  settings: AiSdkAgentSettings<TOOLS>,
  options: AiSdkAgentOptions = {},
): DurableAgent {
  return new AiSdkAgent(settings as unknown as AiSdkAgentSettings, options);
}

/** See `aiSdkAgent`. */
export class AiSdkAgent implements DurableAgent {
  private readonly tools: ToolSet;
  private readonly model: WrappableModel;
  private readonly ai: InstalledAi;
  private readonly approval: SdkApproval;

  constructor(
    private readonly settings: AiSdkAgentSettings,
    private readonly options: AiSdkAgentOptions = {},
  ) {
    this.ai = installedAi();
    this.tools = settings.tools ?? {};
    this.model = wrappableModel(settings.model, this.ai);
    this.approval = sdkApproval(this.tools, (settings as VersionedSettings).toolApproval);
  }

  /** The agent's release label (`AiSdkAgentOptions.version`). */
  get version(): string | undefined {
    return this.options.version;
  }

  /** How a resume across a change goes on (`AiSdkAgentOptions.onVersionChange`). */
  get onVersionChange(): VersionChangePolicy | undefined {
    return this.options.onVersionChange;
  }

  /** The tools and their input schemas, as the SDK gives them to the model. */
  describe(): AgentShape {
    return aiSdkAgentShape(this.tools);
  }

  /** The SDK's own check of a tool call's input (the tool's schema), with the SDK's message. */
  async checkToolInput(call: ToolCall): Promise<ToolInputCheck> {
    const check = await checkSdkToolInput(this.tools, call);
    return check.ok ? { ok: true } : { ok: false, error: check.error.message };
  }

  toolTraits(name: string): ToolTraits | undefined {
    const declared = this.options.toolTraits?.[name];
    if (!this.tools[name] && !declared) return undefined;
    return {
      ...(this.approval.toolNames.has(name) ? { requiresApproval: true } : {}),
      ...declared,
    };
  }

  async run(handle: RunHandle): Promise<void> {
    const contexts = toolContexts(this.ai, this.settings as VersionedSettings, this.tools, {
      threadId: handle.threadId,
      runId: handle.runId,
    });
    await handle.prepare((call, signal) =>
      executeDirectly(this.tools, call, signal, contexts.option(call.name), handle),
    );
    // Built loosely and passed as the installed major's options: the context and approval keys differ between 6 and 7.
    const options = {
      // The resume message is a system message inside the conversation, on purpose.
      allowSystemInMessages: true,
      ...this.settings,
      ...contexts.setting,
      ...(this.ai.major === 7 ? { toolApproval: this.approval.toolApproval } : {}),
      model: wrapLanguageModel({
        model: this.model,
        middleware: [
          refusedCallsMiddleware(this.tools, handle),
          durableMiddleware(handle, this.options.expectedReasoningMs),
        ],
      }),
      tools: durableTools(this.tools, handle),
      messages: toModelMessages(handle.messages),
      abortSignal: handle.signal,
      // The SDK's default onError prints a stop's stack as a failure's.
      onError: stopAwareOnError(
        handle.signal,
        this.settings.onError as StreamErrorHandler | undefined,
      ),
    };
    const result = streamText(options as StreamTextOptions);
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error;
    }
    // The SDK ends an aborted stream quietly.
    if (handle.signal.aborted) throw new CallAbortedError();
    await answerRefusedCalls(this.tools, handle);
  }
}
