import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { InvalidThreadListQueryError } from '../errors/invalid-thread-list-query.error.js';
import { ThreadAccessDeniedError } from '../errors/thread-access-denied.error.js';
import { ThreadNotFoundError } from '../errors/thread-not-found.error.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import {
  openSqliteStore,
  type SqliteStoreFixture,
} from '../typeorm-store/sqlite-store.fixtures.js';
import type { TypeOrmSessionStore } from '../typeorm-store/typeorm-session.store.js';
import { CreatorOwnsThread, type ThreadAccessPolicy } from './thread-access.policy.js';
import { ThreadQueryService } from './thread-query.service.js';

beforeAll(() => Logger.overrideLogger(false));

/** Lets the thread's creator and the members of one team in. */
class TeamPolicy implements ThreadAccessPolicy {
  constructor(private readonly team: ReadonlySet<string>) {}

  canAccess(userId: string, thread: ThreadRecord): boolean {
    return thread.ownerId === userId || this.team.has(userId);
  }
}

/** Answers through a Promise, as a policy that looks the user up somewhere would. */
class AsyncPolicy implements ThreadAccessPolicy {
  constructor(private readonly allowed: ReadonlySet<string>) {}

  async canAccess(userId: string): Promise<boolean> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return this.allowed.has(userId);
  }
}

let sqlite: SqliteStoreFixture;
let store: TypeOrmSessionStore;

beforeEach(async () => {
  sqlite = await openSqliteStore();
  store = sqlite.store;
  await createFinishedThread('t1', 'alice');
});

afterEach(async () => {
  await sqlite.close();
});

/** A thread `ownerId` created with one run that completed. */
async function createFinishedThread(threadId: string, ownerId: string): Promise<void> {
  const runKey = randomUUID();
  await store.startRun({
    threadId,
    ownerId,
    runKey,
    runId: 'r1',
    instanceId: 'instance-a',
    messages: [{ id: 'm1', role: 'user', content: 'hello' }],
  });
  await store.finishRun({
    threadId,
    runKey,
    status: 'completed',
    stopReason: 'completed',
    iteration: 1,
    phase: 'reasoning',
    interrupt: null,
  });
}

/** The error a call rejected with. */
async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('expected the call to be refused');
    },
    (error: unknown) => error,
  );
}

describe('ThreadQueryService with CreatorOwnsThread', () => {
  const service = () => new ThreadQueryService(store, new CreatorOwnsThread());

  it("gives the creator the thread's status", async () => {
    const status = await service().getStatus('alice', 't1');

    expect(status).toMatchObject({
      threadId: 't1',
      status: 'idle',
      messageCount: 1,
      activeRunId: null,
      lastRun: { runId: 'r1', status: 'completed', stopReason: 'completed' },
      interrupt: null,
    });
  });

  it("gives the creator the thread's messages", async () => {
    const history = await service().getMessages('alice', 't1');

    expect(history).toEqual({
      threadId: 't1',
      messages: [
        expect.objectContaining({ id: 'm1', role: 'user', content: 'hello', runId: 'r1' }),
      ],
      nextCursor: null,
    });
  });

  it('refuses a messages page size out of bounds with a 400 naming limit', async () => {
    await expect(service().getMessages('alice', 't1', { limit: 1001 })).rejects.toMatchObject({
      code: 'INVALID_LIMIT',
      field: 'limit',
    });
  });

  it('refuses the status to another user with a 403 ThreadAccessDeniedError', async () => {
    const error = await rejection(service().getStatus('bob', 't1'));

    expect(error).toBeInstanceOf(ThreadAccessDeniedError);
    expect(error).toMatchObject({ code: 'THREAD_FORBIDDEN', threadId: 't1' });
    expect((error as ThreadAccessDeniedError).getStatus()).toBe(403);
  });

  it('refuses the messages to another user with a ThreadAccessDeniedError', async () => {
    await expect(service().getMessages('bob', 't1')).rejects.toBeInstanceOf(
      ThreadAccessDeniedError,
    );
  });

  it('answers an unknown thread with a 404 ThreadNotFoundError', async () => {
    const error = await rejection(service().getStatus('alice', 'nobody'));

    expect(error).toBeInstanceOf(ThreadNotFoundError);
    expect(error).toMatchObject({ code: 'THREAD_NOT_FOUND', threadId: 'nobody' });
    expect((error as ThreadNotFoundError).getStatus()).toBe(404);
  });

  it('answers the messages of an unknown thread with a ThreadNotFoundError', async () => {
    await expect(service().getMessages('alice', 'nobody')).rejects.toBeInstanceOf(
      ThreadNotFoundError,
    );
  });
});

describe('ThreadQueryService with a custom ThreadAccessPolicy', () => {
  it('lets a team member the policy admits read the status of a thread another user created', async () => {
    const service = new ThreadQueryService(store, new TeamPolicy(new Set(['carol'])));

    await expect(service.getStatus('carol', 't1')).resolves.toMatchObject({
      threadId: 't1',
      messageCount: 1,
    });
  });

  it('lets a team member the policy admits read the messages of a thread another user created', async () => {
    const service = new ThreadQueryService(store, new TeamPolicy(new Set(['carol'])));

    const history = await service.getMessages('carol', 't1');

    expect(history.messages.map((message) => message.id)).toEqual(['m1']);
  });

  it('still refuses a user the custom policy does not admit', async () => {
    const service = new ThreadQueryService(store, new TeamPolicy(new Set(['carol'])));

    await expect(service.getStatus('dave', 't1')).rejects.toBeInstanceOf(ThreadAccessDeniedError);
  });

  it('awaits a policy that answers with a Promise and refuses when it resolves false', async () => {
    const service = new ThreadQueryService(store, new AsyncPolicy(new Set(['carol'])));

    await expect(service.getStatus('alice', 't1')).rejects.toBeInstanceOf(ThreadAccessDeniedError);
  });

  it('awaits a policy that answers with a Promise and admits when it resolves true', async () => {
    const service = new ThreadQueryService(store, new AsyncPolicy(new Set(['carol'])));

    await expect(service.getMessages('carol', 't1')).resolves.toMatchObject({
      threadId: 't1',
      messages: [expect.objectContaining({ id: 'm1' })],
    });
  });
});

describe('ThreadQueryService.listThreads', () => {
  const service = () => new ThreadQueryService(store, new CreatorOwnsThread());

  it("lists the caller's threads with their status, message count and last activity, and no cursor on the last page", async () => {
    await createFinishedThread('t2', 'bob');

    await expect(service().listThreads('alice')).resolves.toEqual({
      threads: [{ threadId: 't1', status: 'idle', messageCount: 1, updatedAt: expect.any(String) }],
    });
  });

  it('pages with nextCursor until the last page', async () => {
    await createFinishedThread('t2', 'alice');
    await createFinishedThread('t3', 'alice');

    const first = await service().listThreads('alice', { limit: 2 });
    const second = await service().listThreads('alice', { limit: 2, cursor: first.nextCursor });

    expect([...first.threads, ...second.threads].map((thread) => thread.threadId).sort()).toEqual([
      't1',
      't2',
      't3',
    ]);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(second.nextCursor).toBeUndefined();
  });

  it.each([0, 101, 2.5, Number.NaN])(
    'refuses limit %p with a 400 naming the limit',
    async (limit) => {
      const error = await rejection(service().listThreads('alice', { limit }));

      expect(error).toBeInstanceOf(InvalidThreadListQueryError);
      expect(error).toMatchObject({
        code: 'INVALID_LIMIT',
        message: 'limit: must be an integer from 1 to 100',
      });
    },
  );

  it('refuses a cursor it did not make with a 400 naming the cursor', async () => {
    await expect(service().listThreads('alice', { cursor: 'bogus!' })).rejects.toMatchObject({
      code: 'INVALID_CURSOR',
    });
  });
});
