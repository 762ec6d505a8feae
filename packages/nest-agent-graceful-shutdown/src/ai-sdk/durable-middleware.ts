import type { LanguageModelMiddleware } from 'ai';
import type { ToolCall } from '../agent/agent-message.js';
import type { AnswerStream, RunHandle } from '../handle/run-handle.interface.js';
import type { GenerateResult, StreamPart } from './ai-sdk-types.js';
import { installedAi } from './installed-ai.js';
import { reportUsage } from './usage.js';

/**
 * A language-model middleware that makes every model call of a run a pre-reasoning safe point,
 * streams its text and tool calls as AG-UI events, and makes the whole answer durable before
 * the AI SDK sees its tool calls, so no tool runs before the message that asked for it is stored.
 * It declares the specification of the installed `ai` (v4 with AI SDK 7, v3 with AI SDK 6); the
 * parts it reads have the same shape in both.
 */
export function durableMiddleware(
  handle: RunHandle,
  expectedDurationMs?: number,
): LanguageModelMiddleware {
  const reason = async () => {
    const point = await handle.beforeReasoning({ expectedDurationMs });
    if (point.stop) throw handle.stopped(point);
    return handle.startAnswer();
  };
  return {
    // AI SDK 6's middleware type wants 'v3', AI SDK 7's any string: the cast serves both.
    specificationVersion: installedAi()
      .middlewareSpec as LanguageModelMiddleware['specificationVersion'],
    async wrapGenerate({ doGenerate }) {
      const answer = await reason();
      let result: GenerateResult;
      try {
        result = await doGenerate();
      } catch (error) {
        await answer.cutOff();
        throw error;
      }
      reportUsage(handle, result.usage);
      const text = result.content
        .flatMap((part) => (part.type === 'text' ? [part.text] : []))
        .join('');
      const calls = result.content.flatMap((part) =>
        part.type === 'tool-call' && !part.providerExecuted ? [toToolCall(part)] : [],
      );
      await answer.complete({ content: text, toolCalls: calls });
      return result;
    },
    async wrapStream({ doStream }) {
      const answer = await reason();
      try {
        const result = await doStream();
        return { ...result, stream: durableStream(result.stream, answer, handle) };
      } catch (error) {
        await answer.cutOff();
        throw error;
      }
    },
  };
}

type ToolCallPart = Extract<StreamPart, { type: 'tool-call' }>;

function toToolCall(part: ToolCallPart): ToolCall {
  return { id: part.toolCallId, name: part.toolName, arguments: part.input };
}

/**
 * Passes the model's stream on, telling the answer of every delta, and holds its tool calls
 * back until the answer is durable (at `finish`, or at the end of the stream).
 */
function durableStream(
  source: ReadableStream<StreamPart>,
  answer: AnswerStream,
  handle: RunHandle,
): ReadableStream<StreamPart> {
  const reader = source.getReader();
  let text = '';
  const calls: ToolCall[] = [];
  const held: StreamPart[] = [];
  let completed = false;
  const complete = async (controller: ReadableStreamDefaultController<StreamPart>) => {
    completed = true;
    await answer.complete({ content: text, toolCalls: calls });
    for (const part of held) controller.enqueue(part);
  };
  return new ReadableStream<StreamPart>({
    async pull(controller) {
      try {
        // Read until something goes out: a pull that enqueues nothing is not called again.
        for (;;) {
          const { done, value: part } = await reader.read();
          if (done) {
            if (!completed) await complete(controller);
            controller.close();
            return;
          }
          if (part.type === 'tool-call' && !part.providerExecuted) {
            calls.push(toToolCall(part));
            held.push(part);
            continue;
          }
          if (part.type === 'text-delta') {
            text += part.delta;
            answer.text(part.delta);
          } else if (part.type === 'tool-input-start' && !part.providerExecuted) {
            answer.toolCallStart({ id: part.id, name: part.toolName });
          } else if (part.type === 'tool-input-delta') {
            answer.toolCallArgs(part.id, part.delta);
          } else if (part.type === 'tool-input-end') {
            answer.toolCallEnd(part.id);
          } else if (part.type === 'finish') {
            reportUsage(handle, part.usage);
            await complete(controller);
          }
          controller.enqueue(part);
          return;
        }
      } catch (error) {
        if (!completed) await answer.cutOff().catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel(reason) {
      if (!completed) await answer.cutOff().catch(() => undefined);
      await reader.cancel(reason);
    },
  });
}
