import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Logger, type INestApplication } from '@nestjs/common';
import { answer, scriptedModel } from '../runtime/agent-runtime.fixtures.js';
import { InvalidEventIdError } from '../errors/invalid-event-id.error.js';
import { InvalidIdError } from '../errors/invalid-id.error.js';
import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';
import { InvalidThreadListQueryError } from '../errors/invalid-thread-list-query.error.js';
import { InvalidWaitError } from '../errors/invalid-wait.error.js';
import { RunIdReusedError } from '../errors/run-id-reused.error.js';
import {
  openSqliteStore,
  type SqliteStoreFixture,
} from '../typeorm-store/sqlite-store.fixtures.js';
import { startModuleApp } from './module-app.fixtures.js';
import { ThreadQueryService } from '../threads/thread-query.service.js';
import { AgentRun } from './agent-run.js';
import { AgentRunService } from './agent-run.service.js';
import { RunCancelService } from './run-cancel.service.js';
import type { ValidRunInput } from './run-input.js';
import { RunStreamService } from './run-stream.service.js';

beforeAll(() => Logger.overrideLogger(false));

const NOT_EVENT_IDS: unknown[] = [NaN, -1, 1.5, Infinity, Number.MAX_SAFE_INTEGER + 1, '3', null];
const agent = { model: scriptedModel(() => Promise.resolve(answer('done'))).model, tools: [] };
const input = (threadId: string, runId = 'r1'): ValidRunInput => ({
  threadId,
  runId,
  userMessages: [{ id: `${threadId}-m1`, content: 'hi' }],
  resume: [],
});

/** A Node response no one reads: whatever a refused call wrote would show in its state. */
function response(): ServerResponse {
  return new ServerResponse(new IncomingMessage(new Socket()));
}

describe('the services refuse malformed arguments before reading or writing anything', () => {
  let sqlite: SqliteStoreFixture;
  let app: INestApplication;

  beforeAll(async () => {
    sqlite = await openSqliteStore();
    app = await startModuleApp(sqlite.store);
    // alice's thread t1 has one run, r1, that completed: its log is there to be joined.
    const run = await app.get(AgentRunService).start('alice', input('t1'), agent);
    if (!(run instanceof AgentRun)) throw new Error('a new run must be started');
    await run.execute();
  });

  afterAll(async () => {
    await app.close();
    await sqlite.close();
  });

  it.each(NOT_EVENT_IDS)(
    'join refuses the lastEventId %p with InvalidEventIdError (400), writing nothing',
    async (lastEventId) => {
      const target = response();
      const refused = app
        .get(RunStreamService)
        .join('alice', 't1', { runId: 'r1', lastEventId: lastEventId as number }, target);

      await expect(refused).rejects.toThrow(InvalidEventIdError);
      await expect(refused).rejects.toMatchObject({
        field: 'lastEventId',
        code: 'INVALID_EVENT_ID',
        status: 400,
      });
      expect(target.headersSent).toBe(false);
      expect(target.writableEnded).toBe(false);
    },
  );

  it("names the field and the value in join's refusal of NaN, and no database error", async () => {
    const refused = app
      .get(RunStreamService)
      .join('alice', 't1', { lastEventId: Number('abc') }, response());

    await expect(refused).rejects.toThrow(
      /^lastEventId: must be a non-negative integer, an event id of the run's stream \(got NaN\)/,
    );
  });

  it('join refuses a malformed thread or run id with InvalidIdError (400)', async () => {
    const streams = app.get(RunStreamService);

    await expect(streams.join('alice', '..', {}, response())).rejects.toMatchObject({
      field: 'threadId',
      code: 'INVALID_ID',
    });
    await expect(streams.join('alice', 't1', { runId: 'r 1' }, response())).rejects.toMatchObject({
      field: 'runId',
      code: 'INVALID_ID',
    });
  });

  it('start refuses a lastEventId that is no event id, and writes no thread', async () => {
    const refused = app
      .get(AgentRunService)
      .start('alice', input('t-new'), agent, { lastEventId: -1 });

    await expect(refused).rejects.toThrow(InvalidEventIdError);
    expect(await sqlite.store.findThread('t-new')).toBeNull();
  });

  it.each<[string, Partial<ValidRunInput>]>([
    ['threadId', { threadId: '..' }],
    ['runId', { runId: '' }],
    ['userMessages[0].id', { userMessages: [{ id: 'x'.repeat(129), content: 'hi' }] }],
    ['userMessages[0].content', { userMessages: [{ id: 'm1', content: 7 as unknown as string }] }],
    ['userMessages[0].id', { userMessages: [{ id: 'm 1', content: 'hi' }] }],
    ['userMessages[0].content', { userMessages: [{ id: 'm1', content: 'a\u0000b' }] }],
    ['userMessages[0].content', { userMessages: [{ id: 'm1', content: 'a\ud800b' }] }],
    [
      'resume[0].status',
      { resume: [{ interruptId: 'approve:c1', status: 'maybe' as 'resolved' }] },
    ],
  ])(
    'start refuses an input built by hand with a bad %s (422 naming it), and writes no thread',
    async (field, change) => {
      const refused = app
        .get(AgentRunService)
        .start('alice', { ...input('t-hand'), ...change }, agent);

      await expect(refused).rejects.toThrow(InvalidRunInputError);
      await expect(refused).rejects.toMatchObject({ field });
      expect(await sqlite.store.findThread('t-hand')).toBeNull();
    },
  );

  it('start and the thread reads refuse a user id no store holds', async () => {
    await expect(
      app.get(AgentRunService).start('', input('t-nobody'), agent),
    ).rejects.toMatchObject({ field: 'userId', code: 'INVALID_ID' });
    await expect(app.get(ThreadQueryService).getStatus('u'.repeat(257), 't1')).rejects.toThrow(
      InvalidIdError,
    );
    for (const userId of [' ', ' alice', 'alice ', 'ali\u0000ce', 'ali\ud800ce']) {
      await expect(
        app.get(AgentRunService).start(userId, input('t-nobody'), agent),
      ).rejects.toMatchObject({ field: 'userId' });
    }
    expect(await sqlite.store.findThread('t-nobody')).toBeNull();
  });

  it('start refuses a retry of an ended run whose known message carries other text (409), writing nothing', async () => {
    const before = await sqlite.store.loadMessages('t1');
    const retry = { ...input('t1'), userMessages: [{ id: 't1-m1', content: 'not what was sent' }] };

    const refused = app.get(AgentRunService).start('alice', retry, agent);

    await expect(refused).rejects.toThrow(RunIdReusedError);
    await expect(refused).rejects.toMatchObject({
      code: 'RUN_ID_REUSED',
      status: 409,
      field: 'messages',
    });
    expect(await sqlite.store.loadMessages('t1')).toEqual(before);
  });

  it('the thread reads refuse a malformed thread id, a cursor that is no string and a limit that is no integer', async () => {
    const threads = app.get(ThreadQueryService);

    await expect(threads.getStatus('alice', 'a/b')).rejects.toMatchObject({
      field: 'threadId',
      status: 400,
    });
    await expect(threads.getMessages('alice', 7 as unknown as string)).rejects.toThrow(
      InvalidIdError,
    );
    await expect(threads.listThreads('alice', { cursor: 7 as unknown as string })).rejects.toThrow(
      InvalidThreadListQueryError,
    );
    await expect(threads.listThreads('alice', { limit: NaN })).rejects.toMatchObject({
      field: 'limit',
      code: 'INVALID_LIMIT',
    });
  });

  it('cancel refuses a malformed run id and a waitMs that is no whole number of milliseconds', async () => {
    const cancels = app.get(RunCancelService);

    await expect(cancels.cancel('alice', 't1', '.')).rejects.toMatchObject({
      field: 'runId',
      code: 'INVALID_ID',
    });
    for (const waitMs of [NaN, -1, 2.5, 2 ** 31])
      await expect(cancels.cancel('alice', 't1', undefined, waitMs)).rejects.toThrow(
        InvalidWaitError,
      );
  });

  it('continueInterrupted refuses a malformed thread id', async () => {
    await expect(app.get(AgentRunService).continueInterrupted('..')).rejects.toThrow(
      InvalidIdError,
    );
  });
});
