import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { isTransientConnectionError, retryThroughOutage } from './connection-retry';

describe('isTransientConnectionError', () => {
  it.each([
    ['a transaction whose connection the server dropped (repository call)', new QueryRunnerAlreadyReleasedError()],
    ['a transaction whose connection the server dropped (manager.query)', new QueryRunnerProviderAlreadyReleasedError()],
    ['a query cut by a restart', new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly'))],
    ['a server shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
  ])('treats %s as an outage', (_case, error) => {
    expect(isTransientConnectionError(error)).toBe(true);
  });

  it('treats an answer of the database (a constraint) as final', () => {
    expect(isTransientConnectionError(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
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
