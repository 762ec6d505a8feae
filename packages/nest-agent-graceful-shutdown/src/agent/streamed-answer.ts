import { EventType, type BaseEvent } from '@ag-ui/core';
import type { AgentMessage } from './agent-message.js';
import type { ModelStreamSink } from './agent-model.interface.js';
import { assistantMessageEvents, type RunEventSink } from './run-events.js';

/**
 * One reasoning call's answer as it streams: turns the model's deltas into AG-UI events at
 * once (`TEXT_MESSAGE_*` and `TOOL_CALL_*`, under the id the answer will be stored with) and
 * keeps the text said so far, so an interrupted call can still be saved. Once closed, late
 * deltas of an aborted call are ignored.
 */
export class StreamedAnswer implements ModelStreamSink {
  private said = '';
  /** Characters streamed so far: the text, and the names and arguments of tool calls. */
  private streamed = 0;
  private textOpen = false;
  private readonly openCalls = new Set<string>();
  private readonly streamedCalls = new Set<string>();
  private closed = false;

  constructor(
    readonly messageId: string,
    private readonly emit: RunEventSink,
  ) {}

  /** The text streamed so far. */
  get streamedText(): string {
    return this.said;
  }

  /** How many characters the call streamed: its text, and its tool calls' names and arguments. */
  get streamedCharacters(): number {
    return this.streamed;
  }

  text(delta: string): void {
    if (this.closed || delta.length === 0) return;
    if (!this.textOpen) {
      this.textOpen = true;
      this.send({
        type: EventType.TEXT_MESSAGE_START,
        messageId: this.messageId,
        role: 'assistant',
      });
    }
    this.said += delta;
    this.streamed += delta.length;
    this.send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.messageId, delta });
  }

  toolCallStart(call: { id: string; name: string }): void {
    if (this.closed || this.streamedCalls.has(call.id)) return;
    this.endText();
    this.streamedCalls.add(call.id);
    this.openCalls.add(call.id);
    this.streamed += call.name.length;
    this.send({
      type: EventType.TOOL_CALL_START,
      toolCallId: call.id,
      toolCallName: call.name,
      parentMessageId: this.messageId,
    });
  }

  toolCallArgs(id: string, delta: string): void {
    if (this.closed || !this.openCalls.has(id) || delta.length === 0) return;
    this.streamed += delta.length;
    this.send({ type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta });
  }

  toolCallEnd(id: string): void {
    if (this.closed || !this.openCalls.delete(id)) return;
    this.send({ type: EventType.TOOL_CALL_END, toolCallId: id });
  }

  /**
   * The call finished with `message`: emits whatever the stream did not (all of it for a
   * model that does not stream) and closes what it left open.
   */
  finish(message: AgentMessage): void {
    if (this.closed) return;
    if (this.said.length === 0 && this.streamedCalls.size === 0) {
      for (const event of assistantMessageEvents(message)) this.emit(event);
    } else {
      this.endText();
      for (const id of [...this.openCalls]) this.toolCallEnd(id);
      const missing = (message.toolCalls ?? []).filter((call) => !this.streamedCalls.has(call.id));
      for (const event of assistantMessageEvents({ ...message, content: '', toolCalls: missing }))
        this.emit(event);
    }
    this.closed = true;
  }

  /** The call was cut off: closes the open message and tool calls so the event stream stays valid. */
  abort(): void {
    if (this.closed) return;
    this.endText();
    for (const id of [...this.openCalls]) this.toolCallEnd(id);
    this.closed = true;
  }

  private endText(): void {
    if (!this.textOpen) return;
    this.textOpen = false;
    this.send({ type: EventType.TEXT_MESSAGE_END, messageId: this.messageId });
  }

  private send(event: Record<string, unknown>): void {
    this.emit(event as unknown as BaseEvent);
  }
}
