import { Logger, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from 'dev-services';
import { answer, scriptedModel } from '../agent/agent-runtime.fixtures';
import { StopReason } from '../agent/stop-reason';
import { GracefulShutdownModule } from '../graceful-shutdown.module';
import { openSqliteStore, type SqliteStoreFixture } from '../session/sqlite-store.fixtures';
import { AgentRunService } from './agent-run.service';
import { AgentRun } from './agent-run';

beforeAll(() => Logger.overrideLogger(false));

describe('AgentRun.streamTo', () => {
  let sqlite: SqliteStoreFixture;
  let app: INestApplication;
  let server: Server;

  beforeEach(async () => {
    sqlite = await openSqliteStore();
    const moduleRef = await Test.createTestingModule({
      imports: [GracefulShutdownModule.forRoot({ shutdown: { handleSignals: false }, store: { useValue: sqlite.store } })],
    }).compile();
    app = moduleRef.createNestApplication();
    await app.init();
  });

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await app.close();
    await sqlite.close();
  });

  it('resolves once the stream is open, while the run goes on to its terminal event', async () => {
    let release!: () => void;
    const reasoning = new Promise<void>((resolve) => (release = resolve));
    const { model } = scriptedModel(async () => {
      await reasoning;
      return answer('done');
    });
    const run = await app
      .get(AgentRunService)
      .start('alice', { threadId: 't1', runId: 'r1', userMessages: [{ id: 'm1', content: 'hi' }], resume: [] }, { model, tools: [] });
    if (!(run instanceof AgentRun)) throw new Error('a new run must be started');

    let handlerReturned = false;
    server = createServer((_request, response) => void run.streamTo(response).then(() => (handlerReturned = true)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const body = fetch(`http://127.0.0.1:${port}/`).then((reply) => reply.text());

    // The handler is free while the model still reasons: the run does not hold the request.
    await waitFor(() => handlerReturned, 'streamTo to resolve before the run ends');
    release();

    expect(await body).toContain('"type":"RUN_FINISHED"');
    const outcome = await run.execute();
    expect(outcome.stopReason).toBe(StopReason.Completed);
    // The run ran once: a second execute answers the same outcome.
    expect(await run.execute()).toBe(outcome);
  });
});
