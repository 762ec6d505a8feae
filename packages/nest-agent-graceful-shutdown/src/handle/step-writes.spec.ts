import type { StepCommit } from '../contracts/step-commit.js';
import type { StepProgress } from '../contracts/step-checkpointer.interface.js';
import { StepWrites } from './step-writes.js';

/** A writer that records each write and answers when told to. */
function recordingWriter() {
  const writes: { step: StepCommit; progress: StepProgress }[] = [];
  let release: (error?: Error) => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const write = async (step: StepCommit, progress: StepProgress) => {
    writes.push({ step, progress });
    await gate;
  };
  const hold = () =>
    (gate = new Promise<void>(
      (resolve, reject) => (release = (error?: Error) => (error ? reject(error) : resolve())),
    ));
  return { writes, write, hold, release: (error?: Error) => release(error) };
}

const at = (iteration: number): StepProgress => ({ iteration, phase: 'acting' });
const message = (id: string) => ({
  id,
  role: 'tool' as const,
  content: id,
  toolCallId: `call-${id}`,
});
const call = (id: string) => ({ id, name: 'search', arguments: '{}' });

describe('StepWrites', () => {
  it('writes a lone step at once, as it was asked for', async () => {
    const writer = recordingWriter();
    const writes = new StepWrites(writer.write);

    await writes.submit({ messages: [message('a')] }, at(1));

    expect(writer.writes).toEqual([{ step: { messages: [message('a')] }, progress: at(1) }]);
  });

  it('merges the steps asked for during a write into the next one, in order, with the latest progress and state', async () => {
    const writer = recordingWriter();
    const writes = new StepWrites(writer.write);
    writer.hold();
    const first = writes.submit({ startedCalls: [call('c1')] }, at(1));
    const later = [
      writes.submit({ messages: [message('a')], state: { n: 1 } }, at(2)),
      writes.submit({ startedCalls: [call('c2')] }, at(2)),
      writes.submit({ messages: [message('b')], state: { n: 2 } }, at(3)),
    ];
    writer.release();
    writer.hold();
    await first;
    writer.release();
    await Promise.all(later);

    expect(writer.writes).toEqual([
      { step: { startedCalls: [call('c1')] }, progress: at(1) },
      {
        step: {
          messages: [message('a'), message('b')],
          startedCalls: [call('c2')],
          state: { n: 2 },
        },
        progress: at(3),
      },
    ]);
  });

  it('rejects every step of a refused write, and goes on with the next', async () => {
    const writer = recordingWriter();
    const writes = new StepWrites(writer.write);
    writer.hold();
    const first = writes.submit({ messages: [message('a')] }, at(1));
    // Both asked for during the first write: they go together, and are refused together.
    const refused = [
      writes.submit({ messages: [message('b')] }, at(1)),
      writes.submit({ startedCalls: [call('c1')] }, at(1)),
    ];
    writer.release();
    writer.hold();
    await first;
    writer.release(new Error('lease lost'));

    const leaseLost = {
      status: 'rejected',
      reason: expect.objectContaining({ message: 'lease lost' }),
    };
    expect(await Promise.allSettled(refused)).toEqual([leaseLost, leaseLost]);
    expect(writer.writes).toHaveLength(2);
    writer.hold();
    const next = writes.submit({ messages: [message('d')] }, at(2));
    writer.release();
    await expect(next).resolves.toBeUndefined();
  });

  it('is idle once every write asked for has settled', async () => {
    const writer = recordingWriter();
    const writes = new StepWrites(writer.write);
    writer.hold();
    let settled = 0;
    void writes.submit({ messages: [message('a')] }, at(1)).then(() => settled++);
    void writes.submit({ messages: [message('b')] }, at(1)).then(() => settled++);
    const idle = writes.idle();
    writer.release();

    await idle;
    expect(settled).toBe(2);
    expect(writer.writes).toHaveLength(2);
  });
});
