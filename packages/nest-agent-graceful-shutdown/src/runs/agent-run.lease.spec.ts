import { Logger, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { setTimeout as pause } from 'node:timers/promises';
import { ask, answer, call, scriptedModel } from '../runtime/agent-runtime.fixtures.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import { GracefulShutdownModule } from '../graceful-shutdown.module.js';
import type { CheckpointTarget } from '../contracts/session-store.interface.js';
import type { StepCommit } from '../contracts/step-commit.js';
import {
  openSqliteStore,
  type SqliteStoreFixture,
} from '../typeorm-store/sqlite-store.fixtures.js';
import { AgentRunService } from './agent-run.service.js';
import { AgentRun } from './agent-run.js';

const LEASE_TTL_MS = 600;

beforeAll(() => Logger.overrideLogger(false));

describe('AgentRun, a tool call whose record came back after the run lost its lease', () => {
  let sqlite: SqliteStoreFixture;
  let app: INestApplication;

  beforeEach(async () => {
    sqlite = await openSqliteStore({ leaseTtlMs: LEASE_TTL_MS });
    const { store } = sqlite;
    // The instance stalls right after the call's record commits, for over half a lease; meanwhile
    // the lease runs out and another instance's sweep records the run as crashed (it takes it over).
    const commit = store.commitStep.bind(store);
    store.commitStep = async (target: CheckpointTarget, step: StepCommit) => {
      await commit(target, step);
      if (!step.startedCalls?.length) return;
      await sqlite.advanceDatabaseClock(LEASE_TTL_MS + 1);
      await store.recoverCrashedRuns();
      await pause(LEASE_TTL_MS / 2 + 50);
    };
    const moduleRef = await Test.createTestingModule({
      imports: [
        GracefulShutdownModule.forRoot({
          shutdown: { handleSignals: false },
          store: { useValue: store },
          leases: { ttlMs: LEASE_TTL_MS },
        }),
      ],
    }).compile();
    app = moduleRef.createNestApplication();
    await app.init();
  });

  afterEach(async () => {
    await app.close();
    await sqlite.close();
  });

  it('does not run the call: the run stops with its lease lost', async () => {
    const executed: string[] = [];
    const { model } = scriptedModel(ask(call('c1', 'charge')), answer('done'));
    const agent = {
      model,
      tools: [
        {
          definition: {
            name: 'charge',
            description: 'a side effect',
            parameters: { type: 'object' },
          },
          execute: async (_args: unknown, context: { toolCallId: string }) => {
            executed.push(context.toolCallId);
            return 'charged';
          },
        },
      ],
    };
    const run = await app
      .get(AgentRunService)
      .start(
        'alice',
        { threadId: 't1', runId: 'r1', userMessages: [{ id: 'm1', content: 'pay' }], resume: [] },
        agent,
      );

    if (!(run instanceof AgentRun)) throw new Error('a new run must be started');
    const outcome = await run.execute();

    expect(executed).toEqual([]);
    expect(outcome.error).toBeInstanceOf(LeaseLostError);
  });
});
