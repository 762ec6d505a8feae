import type { DiscardedTokens } from '../agent/discarded-tokens.js';
import { RunControl } from '../agent/run-control.js';
import { StopReason } from '../agent/stop-reason.js';
import { DurableRunHandle } from './durable-run-handle.js';
import { NO_INSTRUMENTS } from './run-instruments.js';

/** A handle over a history of `historyCharacters` characters that reports the tokens its cut calls discard. */
function handleWith(historyCharacters: number) {
  const discarded: DiscardedTokens[] = [];
  const control = new RunControl();
  const handle = new DurableRunHandle({
    threadId: 't1',
    runId: 'r1',
    history: [{ id: 'u1', role: 'user', content: 'x'.repeat(historyCharacters) }],
    hooks: [],
    control,
    checkpointer: { append: async () => undefined },
    emit: () => undefined,
    instruments: {
      ...NO_INSTRUMENTS,
      modelTokensDiscarded: (tokens) => void discarded.push(tokens),
    },
  });
  return { handle, control, discarded };
}

describe('a model call cut off', () => {
  it('counts, when a stop cut it, the input it was sent and the output it streamed, estimated at 4 characters a token', async () => {
    const { handle, control, discarded } = handleWith(4_000);
    const answer = handle.startAnswer();
    answer.text('The answer is ');
    answer.toolCallStart({ id: 'c1', name: 'lookup' });
    answer.toolCallArgs('c1', '{"q":');

    control.requestStop(StopReason.Interrupted, 'shutdown');
    await answer.cutOff();

    // 14 characters of text, 6 of the tool's name and 5 of its arguments.
    expect(discarded).toEqual([{ input: 1_000, output: 7, source: 'estimate' }]);
  });

  it('counts nothing for a call that failed on its own, with no stop', async () => {
    const { handle, discarded } = handleWith(4_000);
    const answer = handle.startAnswer();
    answer.text('half an answer');

    await answer.cutOff();

    expect(discarded).toEqual([]);
  });
});
