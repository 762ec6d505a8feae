import {
  context,
  trace,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import type { ToolCall } from '../agent/agent-message.js';
import type { ModelUsage } from '../agent/agent-model.interface.js';
import type { RunPhase } from '../agent/stop-reason.js';
import { TRACER_NAME, TraceAttr, type SavedTraceContext } from './trace-attributes.js';

/** What a run span starts with. */
export interface RunSpanStart {
  agentName: string;
  attributes: Attributes;
  /** The interrupted attempt this one resumes: the new trace links to it. */
  resumes?: SavedTraceContext;
}

/**
 * One run attempt's spans through `@opentelemetry/api`: the run (`invoke_agent`), its
 * reasoning and acting steps, each model call (`chat`) inside a reasoning step, and each
 * tool call (`execute_tool`) inside an acting step. Without an OpenTelemetry SDK in the
 * process the API's no-op tracer makes all of it free.
 */
export class RunSpans {
  private readonly tracer = trace.getTracer(TRACER_NAME);
  private run?: Span;
  private runContext: Context = context.active();
  private readonly steps = new Map<RunPhase, Span>();
  private chat?: Span;

  start({ agentName, attributes, resumes }: RunSpanStart): void {
    const links: Link[] = resumes
      ? [
          {
            context: {
              traceId: resumes.traceId,
              spanId: resumes.spanId,
              traceFlags: TraceFlags.SAMPLED,
              isRemote: true,
            },
            attributes: { [TraceAttr.linkReason]: 'resume' },
          },
        ]
      : [];
    this.run = this.tracer.startSpan(`invoke_agent ${agentName}`, {
      kind: SpanKind.INTERNAL,
      attributes,
      links,
    });
    this.runContext = trace.setSpan(context.active(), this.run);
  }

  /** Runs `work` with the run span active, so spans the agent's own libraries make nest under it. */
  within<T>(work: () => T): T {
    return context.with(this.runContext, work);
  }

  /** The run span's ids, kept with an interruption; undefined when the span is not sampled. */
  saved(): SavedTraceContext | undefined {
    const spanContext = this.run?.spanContext();
    if (
      !spanContext ||
      !trace.isSpanContextValid(spanContext) ||
      !(spanContext.traceFlags & TraceFlags.SAMPLED)
    )
      return undefined;
    return { traceId: spanContext.traceId, spanId: spanContext.spanId };
  }

  stepStarted(phase: RunPhase, iteration: number): void {
    if (this.steps.has(phase)) return;
    const step = this.tracer.startSpan(
      phase,
      { attributes: { [TraceAttr.step]: phase, [TraceAttr.iteration]: iteration } },
      this.runContext,
    );
    this.steps.set(phase, step);
    if (phase === 'reasoning') {
      this.chat = this.tracer.startSpan(
        'chat',
        { kind: SpanKind.CLIENT, attributes: { [TraceAttr.operation]: 'chat' } },
        trace.setSpan(this.runContext, step),
      );
    }
  }

  modelUsage(usage: ModelUsage): void {
    (this.chat ?? this.steps.get('reasoning'))?.setAttributes({
      [TraceAttr.inputTokens]: usage.promptTokens,
      [TraceAttr.outputTokens]: usage.completionTokens,
    });
  }

  modelAnswered(toolCalls: number): void {
    this.chat?.setAttribute(TraceAttr.finishReasons, [toolCalls > 0 ? 'tool_calls' : 'stop']);
    this.chat?.end();
    this.chat = undefined;
  }

  stepEnded(phase: RunPhase): void {
    this.steps.get(phase)?.end();
    this.steps.delete(phase);
  }

  /** Runs one tool call inside an `execute_tool` span, a child of the acting step. */
  async tool<T>(call: ToolCall, work: () => Promise<T>): Promise<T> {
    const parent = this.steps.get('acting');
    const span = this.tracer.startSpan(
      `execute_tool ${call.name}`,
      {
        attributes: {
          [TraceAttr.operation]: 'execute_tool',
          [TraceAttr.toolName]: call.name,
          [TraceAttr.toolCallId]: call.id,
          [TraceAttr.toolType]: 'function',
        },
      },
      parent ? trace.setSpan(this.runContext, parent) : this.runContext,
    );
    try {
      return await work();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  }

  /** Ends the steps and call left open by a stop, marking where the run stopped. */
  stopOpenSpans(stopReason: string): void {
    for (const span of [this.chat, ...this.steps.values()])
      span?.setAttribute(TraceAttr.stopReason, stopReason).end();
    this.chat = undefined;
    this.steps.clear();
  }

  /** Ends the run span with how the attempt ended; a failure sets the error status. */
  end(attributes: Attributes, error?: Error): void {
    if (!this.run) return;
    this.run.setAttributes(attributes);
    if (error) {
      this.run.recordException(error);
      this.run.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    this.run.end();
    this.run = undefined;
  }
}
