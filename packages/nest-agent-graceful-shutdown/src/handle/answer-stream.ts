import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { RunEventSink } from '../agent/run-events.js';
import { StreamedAnswer } from '../agent/streamed-answer.js';
import type { AnswerStream } from './run-handle.interface.js';

/** What an answer needs from the run it belongs to. */
export interface AnswerOwner {
  /** Makes the whole answer durable, at once or with its first started call, and moves the run on (step end, pending calls, post-reasoning hooks). */
  completeAnswer(message: AgentMessage, answer: RunAnswerStream): Promise<void>;
  /** Saves the text of an answer cut off by a stop, when the run's policy keeps partial output. */
  saveCutOff(message: AgentMessage): Promise<void>;
  /** The model call was cut off after streaming `streamedCharacters` characters: what it cost is counted when a stop cut it. */
  modelCallCut(streamedCharacters: number): void;
}

/** One model answer streaming into a run: AG-UI events at once, durable once whole. */
export class RunAnswerStream implements AnswerStream {
  private readonly streamed: StreamedAnswer;
  private settled = false;

  constructor(
    readonly messageId: string,
    emit: RunEventSink,
    private readonly owner: AnswerOwner,
  ) {
    this.streamed = new StreamedAnswer(messageId, emit);
  }

  get streamedText(): string {
    return this.streamed.streamedText;
  }

  text(delta: string): void {
    this.streamed.text(delta);
  }

  toolCallStart(call: { id: string; name: string }): void {
    this.streamed.toolCallStart(call);
  }

  toolCallArgs(id: string, delta: string): void {
    this.streamed.toolCallArgs(id, delta);
  }

  toolCallEnd(id: string): void {
    this.streamed.toolCallEnd(id);
  }

  async complete(answer: {
    content: string;
    toolCalls?: readonly ToolCall[];
  }): Promise<AgentMessage> {
    if (this.settled) throw new Error(`answer ${this.messageId} was already completed or cut off`);
    this.settled = true;
    const calls = answer.toolCalls ?? [];
    const message: AgentMessage = {
      id: this.messageId,
      role: 'assistant',
      content: answer.content,
      ...(calls.length ? { toolCalls: [...calls] } : {}),
    };
    // The owner emits the answer's end once it is durable: a client never sees the end of an
    // answer that a crash could lose.
    await this.owner.completeAnswer(message, this);
    return message;
  }

  /** Emits what the stream did not say of `message` and closes it. */
  finishEvents(message: AgentMessage): void {
    this.streamed.finish(message);
  }

  async cutOff(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    this.streamed.abort();
    this.owner.modelCallCut(this.streamed.streamedCharacters);
    const text = this.streamed.streamedText;
    if (text.length > 0)
      await this.owner.saveCutOff({
        id: this.messageId,
        role: 'assistant',
        content: text,
        truncated: true,
      });
  }
}
