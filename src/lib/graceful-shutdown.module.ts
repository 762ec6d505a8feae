import { Inject, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
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
import { SESSION_STORE, type SessionStore } from './session/session-store.interface';
import { TypeOrmSessionStore } from './session/typeorm-session.store';
import { InFlightRunRegistry } from './shutdown/in-flight-run.registry';
import { PROCESS_TERMINATOR } from './shutdown/process-terminator';
import { ShutdownCoordinator } from './shutdown/shutdown-coordinator.service';
import { exitProcess, ShutdownSignalListener } from './shutdown/shutdown-signal.listener';
import { InProcessSignalBus } from './signals/in-process-signal-bus';
import { SIGNAL_BUS } from './signals/signal-bus.interface';
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
        new TypeOrmSessionStore(() =>
          moduleRef.get<DataSource>(getDataSourceToken(options.dataSourceName), { strict: false }),
        ),
    },
    {
      provide: SIGNAL_BUS,
      inject: [RESOLVED_SHUTDOWN_OPTIONS],
      useFactory: (options: ResolvedShutdownOptions) => options.signalBus ?? new InProcessSignalBus(),
    },
    { provide: PROCESS_TERMINATOR, useValue: exitProcess },
    InFlightRunRegistry,
    ShutdownCoordinator,
    ShutdownSignalListener,
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
    SESSION_STORE,
    SIGNAL_BUS,
  ],
})
export class GracefulShutdownModule extends GracefulShutdownConfigurableModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('GracefulShutdown');

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
  ) {
    super();
  }

  /** Runs left `running` by a process that died are marked interrupted so they resume. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.recoverOrphanedRunsOnBoot) return;
    const recovered = await this.store.recoverOrphanedRuns((run) => run.instanceId !== this.options.instanceId);
    if (recovered > 0) this.logger.warn({ msg: 'runs left by a stopped process marked interrupted', count: recovered });
  }
}
