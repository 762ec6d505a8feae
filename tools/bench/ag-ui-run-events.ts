import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent } from '@ag-ui/core';
import type {
  LoggedEvent,
  RunLogKey,
} from '../../packages/nest-agent-graceful-shutdown/src/contracts/run-event-log.interface';

/** A small seeded generator, so every run stores the same mix. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the agent reads the order history and checks each refund against the policy before it answers with a short summary'.split(
    ' ',
  );

/**
 * A realistic agent run's events, with ids 1…`count`, as a model streams them: per step a
 * text message in deltas of 20–60 characters, then one tool call with its arguments in
 * pieces and its result; message and tool call ids are uuids. The lengths are seeded, so
 * every call gives the same mix.
 */
export function agUiRun(run: RunLogKey, count: number): LoggedEvent[] {
  const random = seeded(42);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const text = (length: number) => {
    let out = '';
    while (out.length < length) out += `${WORDS[between(0, WORDS.length - 1)]} `;
    return out.slice(0, length);
  };
  const events: BaseEvent[] = [
    { type: EventType.RUN_STARTED, threadId: run.threadId, runId: run.runId } as BaseEvent,
  ];
  while (events.length < count) {
    const [messageId, toolCallId] = [randomUUID(), randomUUID()];
    events.push({ type: EventType.STEP_STARTED, stepName: 'reasoning' } as BaseEvent);
    events.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' } as BaseEvent);
    for (let delta = between(10, 40); delta > 0; delta--) {
      events.push({
        type: EventType.TEXT_MESSAGE_CONTENT,
        messageId,
        delta: text(between(20, 60)),
      } as BaseEvent);
    }
    events.push({ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent);
    events.push(
      { type: EventType.STEP_FINISHED, stepName: 'reasoning' } as BaseEvent,
      { type: EventType.STEP_STARTED, stepName: 'acting' } as BaseEvent,
    );
    events.push({
      type: EventType.TOOL_CALL_START,
      toolCallId,
      toolCallName: 'lookup_orders',
      parentMessageId: messageId,
    } as BaseEvent);
    for (let delta = between(2, 4); delta > 0; delta--)
      events.push({
        type: EventType.TOOL_CALL_ARGS,
        toolCallId,
        delta: text(between(10, 30)),
      } as BaseEvent);
    events.push({ type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent);
    events.push({
      type: EventType.TOOL_CALL_RESULT,
      messageId: randomUUID(),
      toolCallId,
      content: text(between(80, 300)),
      role: 'tool',
    } as BaseEvent);
    events.push({ type: EventType.STEP_FINISHED, stepName: 'acting' } as BaseEvent);
  }
  return events.slice(0, count).map((event, index) => ({ id: index + 1, event }));
}
