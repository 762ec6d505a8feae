import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import {
  isTransientConnectionError,
  isTransactionConflict,
  retryThroughOutage,
} from './connection-retry.js';

/** An error as node-postgres reports a deadlock (through TypeORM's QueryFailedError). */
const deadlock = () =>
  Object.assign(new Error('deadlock detected'), { driverError: { code: '40P01' } });
const QUICK = { deadlineMs: 5_000, initialDelayMs: 1, maxDelayMs: 1 };

describe('isTransientConnectionError', () => {
  it.each([
    [
      'a transaction whose connection the server dropped (repository call)',
      new QueryRunnerAlreadyReleasedError(),
    ],
    [
      'a transaction whose connection the server dropped (manager.query)',
      new QueryRunnerProviderAlreadyReleasedError(),
    ],
    [
      'a query cut by a restart',
      new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')),
    ],
    [
      'a server shutting down',
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
    ],
  ])('treats %s as an outage', (_case, error) => {
    expect(isTransientConnectionError(error)).toBe(true);
  });

  it('treats an answer of the database (a constraint) as final', () => {
    expect(
      isTransientConnectionError(
        Object.assign(new Error('duplicate key value'), { code: '23505' }),
      ),
    ).toBe(false);
  });
});

describe('retryThroughOutage', () => {
  it('runs the work again after a released connection and returns its result', async () => {
    const attempts: number[] = [];
    const result = await retryThroughOutage(
      async (n) => {
        attempts.push(n);
        if (n === 0) throw new QueryRunnerProviderAlreadyReleasedError();
        return 'done';
      },
      { deadlineMs: 5_000, initialDelayMs: 1, maxDelayMs: 1 },
    );
    expect({ result, attempts }).toEqual({ result: 'done', attempts: [0, 1] });
  });
});

describe('isTransactionConflict', () => {
  it('treats a deadlock and a serialization failure as conflicts', () => {
    expect(
      [deadlock(), Object.assign(new Error('could not serialize access'), { code: '40001' })].map(
        isTransactionConflict,
      ),
    ).toEqual([true, true]);
  });

  it('treats an answer of the database (a constraint) as no conflict', () => {
    expect(
      isTransactionConflict(Object.assign(new Error('duplicate key'), { code: '23505' })),
    ).toBe(false);
  });
});

describe('retryThroughOutage with conflicts', () => {
  it('runs a transaction the database aborted for a deadlock again, until it commits', async () => {
    let calls = 0;
    const result = await retryThroughOutage(async () => {
      if (++calls < 3) throw deadlock();
      return 'committed';
    }, QUICK);
    expect({ result, calls }).toEqual({ result: 'committed', calls: 3 });
  });

  it('does not run a transaction again for any other error', async () => {
    let calls = 0;
    const failing = retryThroughOutage(async () => {
      calls++;
      throw Object.assign(new Error('duplicate key'), { code: '23505' });
    }, QUICK);
    await expect(failing).rejects.toThrow('duplicate key');
    expect(calls).toBe(1);
  });

  it('gives up at its deadline with the last conflict', async () => {
    let calls = 0;
    const failing = retryThroughOutage(
      async () => {
        calls++;
        throw deadlock();
      },
      // A deadline a hundred delays long: a starved event loop still leaves room for a retry.
      { deadlineMs: 500, initialDelayMs: 5, maxDelayMs: 5 },
    );
    await expect(failing).rejects.toThrow('deadlock detected');
    expect(calls).toBeGreaterThan(1);
  });
});
