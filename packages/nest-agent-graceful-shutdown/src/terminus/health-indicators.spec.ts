import { Controller, Get, Logger, Module, type INestApplication } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import { GracefulShutdownModule } from '../graceful-shutdown.module.js';
import {
  openSqliteStore,
  type SqliteStoreFixture,
} from '../typeorm-store/sqlite-store.fixtures.js';
import { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service.js';
import { ShutdownHealthIndicator } from './shutdown.health-indicator.js';
import { SignalBusHealthIndicator } from './signal-bus.health-indicator.js';

beforeAll(() => Logger.overrideLogger(false));

/** A readiness endpoint as a host writes it with terminus. */
@Controller('health')
class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly shutdown: ShutdownHealthIndicator,
    private readonly signals: SignalBusHealthIndicator,
  ) {}

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.shutdown.check(), () => this.signals.check()]);
  }
}

let sqlite: SqliteStoreFixture;
let app: INestApplication;

beforeEach(async () => {
  sqlite = await openSqliteStore();
  @Module({
    imports: [
      TerminusModule,
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: sqlite.store },
      }),
    ],
    controllers: [HealthController],
    providers: [ShutdownHealthIndicator, SignalBusHealthIndicator],
  })
  class HostModule {}
  const moduleRef = await Test.createTestingModule({ imports: [HostModule] }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
});

afterEach(async () => {
  await app.close();
  await sqlite.close();
});

async function readiness(): Promise<{
  status: number;
  body: { status: string; info?: unknown; error?: unknown };
}> {
  const response = await fetch(`${await app.getUrl()}/health/ready`);
  return { status: response.status, body: (await response.json()) as { status: string } };
}

describe('the terminus health indicators in a host readiness check', () => {
  it('reports ready while serving, with the phase and the in-process signal bus', async () => {
    const { status, body } = await readiness();

    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ok',
      info: {
        shutdown: { status: 'up', phase: 'serving', inFlightRuns: 0 },
        signals: { status: 'up', transport: 'in-process', connected: true, fallback: null },
      },
    });
  });

  it('reports not ready (503) from the moment a shutdown starts', async () => {
    const coordinator = app.get(ShutdownCoordinator);
    // Held open by a participant, as a host's own work would: the server still answers.
    let release!: () => void;
    coordinator.holdUntil(new Promise<void>((resolve) => (release = resolve)));
    const shutdown = coordinator.shutdown('test');

    const { status, body } = await readiness();
    release();
    await shutdown;

    expect(status).toBe(503);
    expect(body).toMatchObject({
      status: 'error',
      error: { shutdown: { status: 'down', phase: expect.not.stringMatching(/^serving$/) } },
    });
  });
});
