import { Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR, ModuleRef } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RESOLVED_SHUTDOWN_OPTIONS } from './tokens/graceful-shutdown.tokens.js';
import {
  resolveShutdownOptions,
  type ResolvedShutdownOptions,
} from './options/resolve-shutdown-options.js';
import {
  GRACEFUL_SHUTDOWN_MODULE_OPTIONS,
  GracefulShutdownConfigurableModule,
} from './graceful-shutdown.module-definition.js';
import type { GracefulShutdownModuleOptions } from './options/graceful-shutdown-options.interface.js';
import { RetryAfterInterceptor } from './http/retry-after.interceptor.js';
import { CrashedRunSweeper, LeaseKeeper } from './leases/index.js';
import { ApplicationCloser } from './lifecycle/application-closer.js';
import { shutDownFirst } from './lifecycle/nest-internals.js';
import { AgentRunService } from './runs/agent-run.service.js';
import { RunCancelService } from './runs/run-cancel.service.js';
import { SESSION_STORE } from './contracts/session-store.interface.js';
import { TypeOrmSessionStore } from './typeorm-store/typeorm-session.store.js';
import { InFlightRunRegistry } from './lifecycle/in-flight-run.registry.js';
import { PROCESS_TERMINATOR } from './shutdown/process-terminator.js';
import { ShutdownCoordinator } from './shutdown/shutdown-coordinator.service.js';
import { exitProcess, ShutdownSignalListener } from './shutdown/shutdown-signal.listener.js';
import {
  OWNED_SIGNAL_BUS,
  signalBusProviders,
  type OwnedSignalBus,
} from './signals/signal-bus.providers.js';
import { SIGNAL_BUS } from './contracts/signal-bus.interface.js';
import { ThreadQueryService } from './threads/thread-query.service.js';
import { AgentRegistry } from './runtime/agent-registry.js';
import { AutoResumer } from './runs/auto-resumer.service.js';
import { RUN_EVENT_LOG } from './contracts/run-event-log.interface.js';
import {
  OWNED_RUN_EVENT_LOG,
  runEventLogProviders,
  type OwnedRunEventLog,
} from './streams/run-event-log.providers.js';
import { RunStreamService } from './runs/run-stream.service.js';
import { QueueWatch } from './runs/queue-watch.js';
import { QueuedRunStarter } from './runs/queued-run-starter.service.js';
import { ResumeModeSetting } from './runs/resume-mode.setting.js';
import { AgentTelemetry } from './telemetry/agent-telemetry.js';
import { CreatorOwnsThread, THREAD_ACCESS_POLICY } from './threads/thread-access.policy.js';
import { EventLogger } from './logging/event-logger.js';

/**
 * Durable agent runs that survive shutdowns. Import it once with `forRoot` or `forRootAsync`;
 * inject `AgentRunService` to start runs. On SIGTERM it fails readiness, drains and interrupts
 * runs, saves them with an `InterruptedState`, then closes the host application through Nest's
 * own sequence (its hooks run first, so every host hook runs after the drain) and exits 0.
 */
@Module({
  providers: [
    {
      provide: RESOLVED_SHUTDOWN_OPTIONS,
      inject: [GRACEFUL_SHUTDOWN_MODULE_OPTIONS],
      useFactory: (options: GracefulShutdownModuleOptions) => resolveShutdownOptions(options),
    },
    {
      provide: SESSION_STORE,
      inject: [RESOLVED_SHUTDOWN_OPTIONS, ModuleRef],
      useFactory: (options: ResolvedShutdownOptions, moduleRef: ModuleRef) =>
        new TypeOrmSessionStore(
          () =>
            moduleRef.get<DataSource>(getDataSourceToken(options.dataSourceName), {
              strict: false,
            }),
          {
            leaseTtlMs: options.leaseTtlMs,
          },
        ),
    },
    { provide: THREAD_ACCESS_POLICY, useClass: CreatorOwnsThread },
    ...signalBusProviders,
    ...runEventLogProviders,
    { provide: PROCESS_TERMINATOR, useValue: exitProcess },
    { provide: APP_INTERCEPTOR, useClass: RetryAfterInterceptor },
    InFlightRunRegistry,
    ShutdownCoordinator,
    ApplicationCloser,
    ShutdownSignalListener,
    LeaseKeeper,
    CrashedRunSweeper,
    ResumeModeSetting,
    AgentRunService,
    RunCancelService,
    ThreadQueryService,
    AgentRegistry,
    AutoResumer,
    QueueWatch,
    QueuedRunStarter,
    RunStreamService,
    AgentTelemetry,
  ],
  exports: [
    AgentTelemetry,
    AgentRunService,
    RunCancelService,
    RunStreamService,
    ThreadQueryService,
    AgentRegistry,
    ShutdownCoordinator,
    InFlightRunRegistry,
    SESSION_STORE,
    SIGNAL_BUS,
    RUN_EVENT_LOG,
  ],
})
export class GracefulShutdownModule
  extends GracefulShutdownConfigurableModule
  implements OnModuleInit, OnApplicationShutdown
{
  private readonly logger = new EventLogger('GracefulShutdown');

  constructor(
    @Inject(OWNED_SIGNAL_BUS) private readonly ownedBus: OwnedSignalBus,
    @Inject(OWNED_RUN_EVENT_LOG) private readonly ownedLog: OwnedRunEventLog,
    moduleRef: ModuleRef,
  ) {
    super();
    shutDownFirst(moduleRef, GracefulShutdownModule);
  }

  async onModuleInit(): Promise<void> {
    await Promise.all([this.ownedBus?.connect?.(), this.ownedLog?.connect?.()]);
  }

  /** Closes only the bus and log the module created; its hooks run first, after the drain saved every run. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([
      this.ownedBus
        ?.close?.()
        .catch((error: unknown) =>
          this.logger.warn('signal bus not closed cleanly', { error: String(error) }),
        ),
      this.ownedLog
        ?.close?.()
        .catch((error: unknown) =>
          this.logger.warn('run event log not closed cleanly', { error: String(error) }),
        ),
    ]);
  }
}
