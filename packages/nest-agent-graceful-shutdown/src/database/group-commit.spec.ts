import { GroupCommit, type BatchOutcome } from './group-commit.js';

/** A writer that records each batch and answers when told to. */
function recordingWriter() {
  const batches: number[][] = [];
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const write = async (items: readonly number[]): Promise<BatchOutcome<number>[]> => {
    batches.push([...items]);
    await gate;
    return items.map((item) =>
      item < 0
        ? { ok: false, error: new Error(`refused ${item}`) }
        : { ok: true, value: item * 10 },
    );
  };
  const hold = () => (gate = new Promise((resolve) => (release = resolve)));
  return { batches, write, hold, release: () => release() };
}

describe('GroupCommit', () => {
  it('writes the calls of one tick as one batch', async () => {
    const writer = recordingWriter();
    const group = new GroupCommit(writer.write);

    const values = await Promise.all([1, 2, 3].map((n) => group.submit(n)));

    expect(values).toEqual([10, 20, 30]);
    expect(writer.batches).toEqual([[1, 2, 3]]);
  });

  it('writes the calls that arrive while a batch is in flight together in the next batch', async () => {
    const writer = recordingWriter();
    const group = new GroupCommit(writer.write);
    writer.hold();
    const first = group.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [group.submit(2), group.submit(3)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(group.pending).toBe(2);

    writer.release();
    await Promise.all([first, ...later]);

    expect(writer.batches).toEqual([[1], [2, 3]]);
  });

  it('rejects only the item the writer refused', async () => {
    const writer = recordingWriter();
    const group = new GroupCommit(writer.write);

    const results = await Promise.allSettled([group.submit(4), group.submit(-1), group.submit(5)]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]).toMatchObject({ reason: { message: 'refused -1' } });
  });

  it('rejects every item of a batch whose write failed, and writes the next batch anyway', async () => {
    let calls = 0;
    const group = new GroupCommit<number, number>(async (items) => {
      if (calls++ === 0) throw new Error('database gone');
      return items.map((value) => ({ ok: true as const, value }));
    });

    const failed = await Promise.allSettled([group.submit(1), group.submit(2)]);
    const next = await group.submit(3);

    expect(failed.every((r) => r.status === 'rejected')).toBe(true);
    expect(next).toBe(3);
  });

  it('splits a long queue into batches of at most maxBatch items', async () => {
    const writer = recordingWriter();
    const group = new GroupCommit(writer.write, 2);

    await Promise.all([1, 2, 3, 4, 5].map((n) => group.submit(n)));

    expect(writer.batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('reports the size of each batch it wrote', async () => {
    const sizes: number[] = [];
    const writer = recordingWriter();
    const group = new GroupCommit(writer.write, 10, (report) => sizes.push(report.size));

    await Promise.all([1, 2].map((n) => group.submit(n)));

    expect(sizes).toEqual([2]);
  });
});
