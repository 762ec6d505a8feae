import { Inject, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  GracefulShutdownConfigurableModule,
  GRACEFUL_SHUTDOWN_MODULE_OPTIONS,
} from './graceful-shutdown.module-definition';
import { RESOLVED_SHUTDOWN_OPTIONS, resolveShutdownOptions, type ResolvedShutdownOptions } from './graceful-shutdown.constants';
import type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface';
import { AgentRunService } from './runs/agent-run.service';
import { RunCancelService } from './runs/run-cancel.service';
import { SESSION_STORE } from './session/session-store.interface';
import { TypeOrmSessionStore } from './session/typeorm-session.store';
import { InFlightRunRegistry } from './shutdown/in-flight-run.registry';
import { PROCESS_TERMINATOR } from './shutdown/process-terminator';
import { ShutdownCoordinator } from './shutdown/shutdown-coordinator.service';
import { exitProcess, ShutdownSignalListener } from './shutdown/shutdown-signal.listener';
import { CrashedRunSweeper, LeaseKeeper } from './leases';
import { InProcessSignalBus } from './signals/in-process-signal-bus';
import { RedisSignalBus } from './signals/redis-signal-bus';
import { SIGNAL_BUS, type SignalBus } from './signals/signal-bus.interface';
import { ThreadQueryService } from './threads/thread-query.service';

/**
 * Durable agent runs that survive shutdowns. Import it once with `forRoot` or
 * `forRootAsync`; inject `AgentRunService` to start runs. The module owns the process's
 * shutdown signals, drains and interrupts runs, saves them with an `InterruptedState`,
 * and resumes them on their next run request.
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
          () => moduleRef.get<DataSource>(getDataSourceToken(options.dataSourceName), { strict: false }),
          { leaseTtlMs: options.leaseTtlMs },
        ),
    },
    {
      provide: SIGNAL_BUS,
      inject: [RESOLVED_SHUTDOWN_OPTIONS],
      useFactory: (options: ResolvedShutdownOptions): SignalBus =>
        options.signalBus ??
        (options.redisUrl
          ? new RedisSignalBus({ url: options.redisUrl, cancelTtlMs: options.cancelTtlMs })
          : new InProcessSignalBus(options.cancelTtlMs)),
    },
    { provide: PROCESS_TERMINATOR, useValue: exitProcess },
    InFlightRunRegistry,
    ShutdownCoordinator,
    ShutdownSignalListener,
    LeaseKeeper,
    CrashedRunSweeper,
    AgentRunService,
    RunCancelService,
    ThreadQueryService,
  ],
  exports: [
    AgentRunService,
    RunCancelService,
    ThreadQueryService,
    ShutdownCoordinator,
    InFlightRunRegistry,
    LeaseKeeper,
    SESSION_STORE,
    SIGNAL_BUS,
  ],
})
export class GracefulShutdownModule extends GracefulShutdownConfigurableModule implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('GracefulShutdown');
  /** The Redis bus the module created from `redisUrl`; a bus passed in is the application's to manage. */
  private readonly ownedBus?: RedisSignalBus;

  constructor(@Inject(RESOLVED_SHUTDOWN_OPTIONS) options: ResolvedShutdownOptions, @Inject(SIGNAL_BUS) signals: SignalBus) {
    super();
    if (!options.signalBus && signals instanceof RedisSignalBus) this.ownedBus = signals;
  }

  async onModuleInit(): Promise<void> {
    await this.ownedBus?.connect();
  }

  /** Runs after the shutdown sequence, so the last run-ended notices are already published. */
  async onApplicationShutdown(): Promise<void> {
    await this.ownedBus
      ?.close()
      .catch((error: unknown) => this.logger.warn({ msg: 'signal bus not closed cleanly', error: String(error) }));
  }
}
