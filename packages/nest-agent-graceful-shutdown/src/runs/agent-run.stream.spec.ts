import { Logger, type INestApplication } from '@nestjs/common';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from 'dev-services';
import { answer, scriptedModel } from '../runtime/agent-runtime.fixtures.js';
import { StopReason } from '../agent/stop-reason.js';
import {
  openSqliteStore,
  type SqliteStoreFixture,
} from '../typeorm-store/sqlite-store.fixtures.js';
import { startModuleApp } from './module-app.fixtures.js';
import { AgentRunService } from './agent-run.service.js';
import { AgentRun } from './agent-run.js';
import { RunStreamService } from './run-stream.service.js';

beforeAll(() => Logger.overrideLogger(false));

describe('AgentRun.streamTo and RunStreamService.join', () => {
  let sqlite: SqliteStoreFixture;
  let app: INestApplication;
  let server: Server;

  beforeEach(async () => {
    sqlite = await openSqliteStore();
    app = await startModuleApp(sqlite.store);
  });

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await app.close();
    await sqlite.close();
  });

  /** A run whose model waits for `release`, started as alice's run r1 of thread t1. */
  async function startHeldRun(): Promise<{ run: AgentRun; release: () => void }> {
    let release!: () => void;
    const reasoning = new Promise<void>((resolve) => (release = resolve));
    const { model } = scriptedModel(async () => {
      await reasoning;
      return answer('done');
    });
    const run = await app
      .get(AgentRunService)
      .start(
        'alice',
        { threadId: 't1', runId: 'r1', userMessages: [{ id: 'm1', content: 'hi' }], resume: [] },
        { model, tools: [] },
      );
    if (!(run instanceof AgentRun)) throw new Error('a new run must be started');
    return { run, release };
  }

  /** Serves `handle` on a loopback port and asks it once; `body` settles with the whole answer. */
  async function serve(
    handle: (response: ServerResponse) => Promise<void>,
    onReturn: () => void,
  ): Promise<{ body: Promise<string> }> {
    server = createServer((_request, response) => void handle(response).then(onReturn));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { body: fetch(`http://127.0.0.1:${port}/`).then((reply) => reply.text()) };
  }

  it('resolves once the stream is open, while the run goes on to its terminal event', async () => {
    const { run, release } = await startHeldRun();
    let handlerReturned = false;
    const { body } = await serve(
      (response) => run.streamTo(response),
      () => (handlerReturned = true),
    );

    // The handler is free while the model still reasons: the run does not hold the request.
    await waitFor(() => handlerReturned, 'streamTo to resolve before the run ends');
    release();

    expect(await body).toContain('"type":"RUN_FINISHED"');
    const outcome = await run.execute();
    expect(outcome.stopReason).toBe(StopReason.Completed);
    // The run ran once: a second execute answers the same outcome.
    expect(await run.execute()).toBe(outcome);
  });

  it('join resolves once the joined stream follows the log, while the run goes on to its terminal event', async () => {
    const { run, release } = await startHeldRun();
    const running = run.execute();
    let handlerReturned = false;
    const { body } = await serve(
      (response) => app.get(RunStreamService).join('alice', 't1', { runId: 'r1' }, response),
      () => (handlerReturned = true),
    );

    // The join's handler is free while the run still reasons: a joined stream does not hold the request either.
    await waitFor(() => handlerReturned, 'join to resolve before the run ends');
    release();

    const text = await body;
    expect(text).toContain('"type":"RUN_STARTED"');
    expect(text).toContain('"type":"RUN_FINISHED"');
    expect((await running).stopReason).toBe(StopReason.Completed);
  });
});
