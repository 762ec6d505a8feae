import {
  Annotation,
  type Checkpoint,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { checkpointFit, nextNodes } from './checkpoint-fit.js';

/** A checkpoint saved before `agent` ran: its trigger is newer than what `agent` saw. */
function checkpointBeforeAgent(values: Record<string, unknown> = {}): Checkpoint {
  return {
    v: 4,
    id: 'cp',
    ts: '2026-01-01T00:00:00.000Z',
    channel_values: { messages: [], 'branch:to:agent': null, ...values },
    channel_versions: { __start__: 2, messages: 2, 'branch:to:agent': 2 },
    versions_seen: { __input__: {}, __start__: { __start__: 1 } },
  };
}

/** A graph whose `agent` reads the state, with `extra` as a new channel. */
function graphWith(extra: Parameters<typeof Annotation.Root>[0]) {
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...extra });
  return new StateGraph(State)
    .addNode('agent', () => ({}))
    .addEdge(START, 'agent')
    .compile();
}

describe('checkpointFit', () => {
  it('reads the next nodes from the triggers newer than their node saw', () => {
    expect(nextNodes(checkpointBeforeAgent())).toEqual(['agent']);
  });

  it('fits a new channel that starts from its default', () => {
    const graph = graphWith({
      count: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
    });

    expect(checkpointFit(graph, checkpointBeforeAgent(), ['messages'])).toEqual({ fits: true });
  });

  it('refuses a new channel with no default that the next node reads', () => {
    const graph = graphWith({ plan: Annotation<{ budget: number }>() });

    expect(checkpointFit(graph, checkpointBeforeAgent(), ['messages'])).toEqual({
      fits: false,
      reason: 'missing channel plan read by agent',
    });
  });

  it('fits a channel with no value that the saving graph already had', () => {
    const graph = graphWith({ plan: Annotation<{ budget: number }>() });

    expect(checkpointFit(graph, checkpointBeforeAgent(), ['messages', 'plan'])).toEqual({
      fits: true,
    });
  });

  it('takes a channel neither valued nor versioned as new in a state saved without its channel list', () => {
    const graph = graphWith({ plan: Annotation<{ budget: number }>() });

    expect(checkpointFit(graph, checkpointBeforeAgent())).toMatchObject({ fits: false });
    expect(checkpointFit(graph, checkpointBeforeAgent({ plan: { budget: 1 } }))).toEqual({
      fits: true,
    });
  });
});
