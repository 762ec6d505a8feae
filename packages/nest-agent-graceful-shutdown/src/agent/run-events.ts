import { EventType, type BaseEvent } from '@ag-ui/core';
import type { AgentMessage } from './agent-message.js';
import type { RunPhase } from './stop-reason.js';

/** Receives the AG-UI events of a run as they happen. */
export type RunEventSink = (event: BaseEvent) => void;

/** The AG-UI events that tell a client about a new assistant message and its tool calls. */
export function assistantMessageEvents(message: AgentMessage): BaseEvent[] {
  const events: BaseEvent[] = [];
  if (message.content.length > 0) {
    events.push(
      { type: EventType.TEXT_MESSAGE_START, messageId: message.id, role: 'assistant' } as BaseEvent,
      {
        type: EventType.TEXT_MESSAGE_CONTENT,
        messageId: message.id,
        delta: message.content,
      } as BaseEvent,
      { type: EventType.TEXT_MESSAGE_END, messageId: message.id } as BaseEvent,
    );
  }
  for (const call of message.toolCalls ?? []) {
    events.push(
      {
        type: EventType.TOOL_CALL_START,
        toolCallId: call.id,
        toolCallName: call.name,
        parentMessageId: message.id,
      } as BaseEvent,
      { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: call.arguments } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId: call.id } as BaseEvent,
    );
  }
  return events;
}

/** The AG-UI event that carries a tool result. */
export function toolResultEvent(message: AgentMessage): BaseEvent {
  return {
    type: EventType.TOOL_CALL_RESULT,
    messageId: message.id,
    toolCallId: message.toolCallId,
    content: message.content,
    role: 'tool',
  } as BaseEvent;
}

/** STEP_STARTED or STEP_FINISHED for a phase. */
export function stepEvent(kind: 'start' | 'finish', phase: RunPhase): BaseEvent {
  const type = kind === 'start' ? EventType.STEP_STARTED : EventType.STEP_FINISHED;
  return { type, stepName: phase } as BaseEvent;
}
