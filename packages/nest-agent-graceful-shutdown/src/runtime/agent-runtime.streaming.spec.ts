import type { BaseEvent } from '@ag-ui/core';
import type { AgentMessage } from '../agent/agent-message.js';
import type { AgentModel, ModelCallContext } from '../agent/agent-model.interface.js';
import type { AgentTool } from '../agent/agent-tool.interface.js';
import { AgentRuntime, type PartialOutputPolicy } from './agent-runtime.js';
import { RunControl } from '../agent/run-control.js';
import { StopReason } from '../agent/stop-reason.js';
import { waitFor } from 'dev-services';

const noopTool: AgentTool = {
  definition: { name: 'lookup', description: 'looks up', parameters: { type: 'object' } },
  execute: async () => 'found',
};

/** Streams `pieces`, then either answers or, with `hang`, waits until the call is aborted. */
function streamingModel(
  pieces: string[],
  options: { hang?: boolean; toolCall?: boolean } = {},
): AgentModel {
  let calls = 0;
  return {
    name: 'streaming',
    async generate(_request, context: ModelCallContext) {
      calls++;
      if (calls > 1) return { content: 'final', toolCalls: [] };
      for (const piece of pieces) context.stream?.text(piece);
      if (options.toolCall) {
        context.stream?.toolCallStart({ id: 'call-1', name: 'lookup' });
        context.stream?.toolCallArgs('call-1', '{"q":');
        if (!options.hang) {
          context.stream?.toolCallArgs('call-1', '1}');
          context.stream?.toolCallEnd('call-1');
        }
      }
      if (options.hang)
        await new Promise((_, reject) =>
          context.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      return {
        content: pieces.join(''),
        toolCalls: options.toolCall ? [{ id: 'call-1', name: 'lookup', arguments: '{"q":1}' }] : [],
      };
    },
  };
}

function start(model: AgentModel, partialOutput?: PartialOutputPolicy) {
  const events: BaseEvent[] = [];
  const saved: AgentMessage[] = [];
  const control = new RunControl();
  const outcome = new AgentRuntime({ model, tools: [noopTool] }).execute(
    { threadId: 't1', runId: 'r1', history: [{ id: 'u1', role: 'user', content: 'go' }] },
    {
      hooks: [],
      control,
      checkpointer: { append: async (messages) => void saved.push(...messages) },
      emit: (event) => void events.push(event),
      partialOutput,
    },
  );
  return { events, saved, control, outcome };
}

const types = (events: BaseEvent[]) => events.map((event) => event.type);

describe('AgentRuntime with a streaming model', () => {
  it('emits each text delta as it streams, under the id the answer is stored with', async () => {
    const { events, saved, outcome } = start(streamingModel(['Hel', 'lo']));

    await outcome;

    const deltas = events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT') as unknown as Array<{
      delta: string;
      messageId: string;
    }>;
    expect(deltas.map((d) => d.delta).slice(0, 2)).toEqual(['Hel', 'lo']);
    expect(deltas[0].messageId).toBe(saved[0].id);
    expect(saved[0]).toMatchObject({ role: 'assistant', content: 'Hello' });
    expect(types(events).slice(1, 5)).toEqual([
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
    ]);
  });

  it('emits a streamed tool call once, as it streams', async () => {
    const { events, outcome } = start(streamingModel(['calling'], { toolCall: true }));

    await outcome;

    expect(types(events).filter((t) => t === 'TOOL_CALL_START')).toHaveLength(1);
    expect(
      events
        .filter((e) => e.type === 'TOOL_CALL_ARGS')
        .map((e) => (e as unknown as { delta: string }).delta),
    ).toEqual(['{"q":', '1}']);
    expect(types(events).filter((t) => t === 'TOOL_CALL_END')).toHaveLength(1);
  });

  it('saves the text streamed before a stop as a truncated answer without its unfinished tool call', async () => {
    const { events, saved, control, outcome } = start(
      streamingModel(['The answer ', 'is'], { hang: true, toolCall: true }),
    );
    await waitFor(() => events.some((e) => e.type === 'TOOL_CALL_ARGS'), 'the stream to start');

    control.requestStop(StopReason.Interrupted, 'shutdown');

    expect(await outcome).toMatchObject({ stopReason: StopReason.Interrupted, phase: 'reasoning' });
    expect(saved).toEqual([
      { id: expect.any(String), role: 'assistant', content: 'The answer is', truncated: true },
    ]);
    expect(types(events)).toContain('TEXT_MESSAGE_END');
    expect(types(events).filter((t) => t === 'TOOL_CALL_END')).toHaveLength(1);
  });

  it('keeps nothing of an answer cut off by a stop under the discard policy', async () => {
    const { events, saved, control, outcome } = start(
      streamingModel(['The answer'], { hang: true }),
      'discard',
    );
    await waitFor(
      () => events.some((e) => e.type === 'TEXT_MESSAGE_CONTENT'),
      'the stream to start',
    );

    control.requestStop(StopReason.Canceled, 'user');

    expect(await outcome).toMatchObject({ stopReason: StopReason.Canceled });
    expect(saved).toEqual([]);
    expect(types(events)).toContain('TEXT_MESSAGE_END');
  });
});
