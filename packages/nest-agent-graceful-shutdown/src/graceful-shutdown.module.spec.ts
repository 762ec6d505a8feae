import {
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type INestApplication,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { GracefulShutdownModule } from './graceful-shutdown.module.js';
import type { ThreadRecord } from './contracts/session-records.js';
import { SESSION_STORE } from './contracts/session-store.interface.js';
import { openSqliteStore, type SqliteStoreFixture } from './typeorm-store/sqlite-store.fixtures.js';
import type { TypeOrmSessionStore } from './typeorm-store/typeorm-session.store.js';
import {
  ShutdownCoordinator,
  type ShutdownPhase,
} from './shutdown/shutdown-coordinator.service.js';
import {
  CreatorOwnsThread,
  THREAD_ACCESS_POLICY,
  type ThreadAccessPolicy,
} from './threads/thread-access.policy.js';
import { ThreadQueryService } from './threads/thread-query.service.js';

beforeAll(() => Logger.overrideLogger(false));

/** Lets everyone in: easy to tell apart from the default policy. */
@Injectable()
class EveryoneMayRead implements ThreadAccessPolicy {
  canAccess(): boolean {
    return true;
  }
}

/** A host provider that needs the module's coordinator without importing the module. */
@Injectable()
class NeedsCoordinator {
  constructor(readonly coordinator: ShutdownCoordinator) {}
}

@Module({ providers: [NeedsCoordinator] })
class HostModule {}

/** A host provider whose own shutdown hook records where the drain stood when it ran. */
@Injectable()
class HostHookRecorder implements OnModuleDestroy {
  phaseSeen?: ShutdownPhase;

  constructor(private readonly coordinator: ShutdownCoordinator) {}

  onModuleDestroy(): void {
    this.phaseSeen = this.coordinator.phase;
  }
}

let sqlite: SqliteStoreFixture;
let store: TypeOrmSessionStore;
let app: INestApplication | undefined;

beforeEach(async () => {
  sqlite = await openSqliteStore();
  store = sqlite.store;
  app = undefined;
});

afterEach(async () => {
  await app?.close();
  await sqlite.close();
});

/** Compiles and starts an application of `imports` (and root `providers`). */
async function start(
  imports: DynamicModule | Array<DynamicModule | typeof HostModule>,
  providers: Array<typeof HostHookRecorder> = [],
): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({
    imports: Array.isArray(imports) ? imports : [imports],
    providers,
  }).compile();
  app = moduleRef.createNestApplication();
  await app.init();
  return moduleRef;
}

/** A thread created by `ownerId`, with one run that completed. */
async function createThread(threadId: string, ownerId: string): Promise<void> {
  const runKey = `${threadId}-key`;
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

describe('GracefulShutdownModule.forRoot seams', () => {
  it('uses the store given with store.useValue', async () => {
    const moduleRef = await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
      }),
    );

    expect(moduleRef.get(SESSION_STORE)).toBe(store);
  });

  it('reads threads through the given store', async () => {
    await createThread('t1', 'alice');
    const moduleRef = await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
      }),
    );

    await expect(moduleRef.get(ThreadQueryService).getStatus('alice', 't1')).resolves.toMatchObject(
      { threadId: 't1', messageCount: 1 },
    );
  });

  it('uses CreatorOwnsThread when no threadAccess is given', async () => {
    const moduleRef = await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
      }),
    );

    expect(moduleRef.get(THREAD_ACCESS_POLICY)).toBeInstanceOf(CreatorOwnsThread);
  });

  it('uses the policy given with threadAccess.useClass', async () => {
    const moduleRef = await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
        threadAccess: { useClass: EveryoneMayRead },
      }),
    );

    expect(moduleRef.get(THREAD_ACCESS_POLICY)).toBeInstanceOf(EveryoneMayRead);
  });

  it('applies the given policy to thread reads', async () => {
    await createThread('t1', 'alice');
    const moduleRef = await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
        threadAccess: { useClass: EveryoneMayRead },
      }),
    );

    await expect(moduleRef.get(ThreadQueryService).getStatus('bob', 't1')).resolves.toMatchObject({
      threadId: 't1',
    });
  });

  it('uses a threadAccess.useValue policy object as it is', async () => {
    const policy: ThreadAccessPolicy = {
      canAccess: (userId: string, thread: ThreadRecord) =>
        thread.ownerId === userId || userId === 'admin',
    };
    const moduleRef = await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
        threadAccess: { useValue: policy },
      }),
    );

    expect(moduleRef.get(THREAD_ACCESS_POLICY)).toBe(policy);
  });
});

describe('GracefulShutdownModule.forRootAsync seams', () => {
  it('uses the store made by store.useFactory', async () => {
    const moduleRef = await start(
      GracefulShutdownModule.forRootAsync({
        useFactory: () => ({ shutdown: { handleSignals: false } }),
        store: { useFactory: () => store },
      }),
    );

    expect(moduleRef.get(SESSION_STORE)).toBe(store);
  });

  it('uses the policy given with threadAccess.useClass', async () => {
    const moduleRef = await start(
      GracefulShutdownModule.forRootAsync({
        useFactory: () => ({ shutdown: { handleSignals: false } }),
        store: { useFactory: () => store },
        threadAccess: { useClass: EveryoneMayRead },
      }),
    );

    expect(moduleRef.get(THREAD_ACCESS_POLICY)).toBeInstanceOf(EveryoneMayRead);
  });
});

describe('GracefulShutdownModule isGlobal', () => {
  it("makes the module's services injectable in a module that does not import it by default", async () => {
    const moduleRef = await start([
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
      }),
      HostModule,
    ]);

    expect(moduleRef.get(NeedsCoordinator).coordinator).toBe(moduleRef.get(ShutdownCoordinator));
  });

  it('keeps its services to the modules that import it when isGlobal is false', async () => {
    const compiling = Test.createTestingModule({
      imports: [
        GracefulShutdownModule.forRoot({
          shutdown: { handleSignals: false },
          store: { useValue: store },
          isGlobal: false,
        }),
        HostModule,
      ],
    }).compile();

    await expect(compiling).rejects.toThrow(/ShutdownCoordinator/);
  });
});

describe('GracefulShutdownModule close', () => {
  it('drains when the application closes with nothing in flight', async () => {
    const moduleRef = await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
      }),
    );
    const coordinator = moduleRef.get(ShutdownCoordinator);
    expect(coordinator.phase).toBe('serving');

    await app!.close();
    app = undefined;

    expect(coordinator.phase).toBe('done');
  });

  it("drains before the host's own onModuleDestroy hooks run", async () => {
    const moduleRef = await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
      }),
      [HostHookRecorder],
    );
    const recorder = moduleRef.get(HostHookRecorder);

    await app!.close();
    app = undefined;

    expect(recorder.phaseSeen).toBe('done');
  });

  it('adds no process signal listener when handleSignals is false', async () => {
    const before = process.listenerCount('SIGTERM') + process.listenerCount('SIGINT');

    await start(
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
      }),
    );

    expect(process.listenerCount('SIGTERM') + process.listenerCount('SIGINT')).toBe(before);
  });
});
