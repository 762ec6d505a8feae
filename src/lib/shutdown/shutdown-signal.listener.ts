import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RESOLVED_SHUTDOWN_OPTIONS, type ResolvedShutdownOptions } from '../graceful-shutdown.constants';
import { PROCESS_TERMINATOR, type ProcessTerminator } from './process-terminator';
import { ShutdownCoordinator } from './shutdown-coordinator.service';

/** The default terminator: the only `process.exit` of the library. */
export const exitProcess: ProcessTerminator = (exitCode) => process.exit(exitCode);

/**
 * The one place that owns the process's shutdown signals. The first signal starts the
 * shutdown and exits with code 0 when it is done; later signals are logged and ignored
 * (staying subscribed keeps them from killing the process mid-save).
 */
@Injectable()
export class ShutdownSignalListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('GracefulShutdown');
  private received?: NodeJS.Signals;
  private readonly onSignal = (signal: NodeJS.Signals) => this.handle(signal);

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    private readonly coordinator: ShutdownCoordinator,
    @Inject(PROCESS_TERMINATOR) private readonly terminate: ProcessTerminator,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.handleSignals) return;
    for (const signal of this.options.signals) process.on(signal, this.onSignal);
  }

  onApplicationShutdown(): void {
    for (const signal of this.options.signals) process.off(signal, this.onSignal);
  }

  private handle(signal: NodeJS.Signals): void {
    if (this.received) {
      this.logger.warn({ msg: 'shutdown already in progress, signal ignored', signal, first: this.received });
      return;
    }
    this.received = signal;
    this.coordinator.shutdown(signal).then(
      () => this.terminate(0),
      (error: unknown) => {
        this.logger.error({ msg: 'shutdown failed', error: String(error) });
        this.terminate(1);
      },
    );
  }
}
