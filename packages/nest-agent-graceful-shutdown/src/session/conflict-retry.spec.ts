import { retryOnConflict } from './conflict-retry';

/** An error as node-postgres reports a deadlock (through TypeORM's QueryFailedError). */
const deadlock = () => Object.assign(new Error('deadlock detected'), { driverError: { code: '40P01' } });

describe('retryOnConflict', () => {
  it('runs a transaction the database aborted for a deadlock again, until it commits', async () => {
    let calls = 0;

    const result = await retryOnConflict(async () => {
      if (++calls < 3) throw deadlock();
      return 'committed';
    });

    expect(result).toBe('committed');
    expect(calls).toBe(3);
  });

  it('does not run a transaction again for any other error', async () => {
    let calls = 0;

    await expect(
      retryOnConflict(async () => {
        calls++;
        throw Object.assign(new Error('duplicate key'), { code: '23505' });
      }),
    ).rejects.toThrow('duplicate key');
    expect(calls).toBe(1);
  });

  it('gives up after the given number of attempts with the last conflict', async () => {
    let calls = 0;

    await expect(
      retryOnConflict(async () => {
        calls++;
        throw deadlock();
      }, 2),
    ).rejects.toThrow('deadlock detected');
    expect(calls).toBe(2);
  });
});
