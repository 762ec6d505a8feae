import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { ApplicationCloser } from '../lifecycle/application-closer.js';
import { PROCESS_TERMINATOR, type ProcessTerminator } from './process-terminator.js';
import { ShutdownCoordinator } from './shutdown-coordinator.service.js';
import { EventLogger } from '../logging/event-logger.js';

/** The default terminator: the only `process.exit` of the library. */
export const exitProcess: ProcessTerminator = (exitCode) => process.exit(exitCode);

/**
 * The one place that owns the process's shutdown signals (`shutdown.handleSignals`).
 *
 * The first signal arms the hard deadline, starts the drain at once (readiness fails), and
 * closes the application through Nest's own sequence, then exits 0. When the host also
 * called `app.enableShutdownHooks()`, Nest's listener is already closing the application
 * (the drain runs first either way): this listener then leaves the close to it and turns the
 * signal Nest sends itself at the end into exit 0. Any other repeated signal is ignored, so a
 * second Ctrl-C cannot kill a run mid-save. The deadline is the only forced exit (code 1).
 */
@Injectable()
export class ShutdownSignalListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new EventLogger('GracefulShutdown');
  private received?: NodeJS.Signals;
  private closedByUs = false;
  private deadline?: NodeJS.Timeout;
  private readonly onSignal = (signal: NodeJS.Signals) => this.handle(signal);

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    private readonly coordinator: ShutdownCoordinator,
    private readonly closer: ApplicationCloser,
    @Inject(PROCESS_TERMINATOR) private readonly terminate: ProcessTerminator,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.handleSignals) return;
    for (const signal of this.options.signals) process.on(signal, this.onSignal);
  }

  /** A close without a signal (`app.close()`) ends the subscription; after a signal it lasts until the exit. */
  onApplicationShutdown(): void {
    if (!this.received) this.unsubscribe();
  }

  private handle(signal: NodeJS.Signals): void {
    if (this.received) return this.handleRepeat(signal);
    this.received = signal;
    this.deadline = setTimeout(() => this.expire(), this.options.shutdownTimeoutMs);
    this.deadline.unref();
    this.coordinator.shutdown(signal).catch(() => undefined);
    // Whether the host closes the application itself (Nest's enableShutdownHooks) is known by
    // the next macrotask, and no API says it sooner. Why that holds: the listeners of one signal
    // run in the same turn; Nest's (`listenToShutdownSignals`) calls `close`, whose sequence
    // awaits only promises already settled (`initializationPromise`, `prepareClose`: the HTTP
    // adapter's `beforeClose`, which closes idle connections without waiting) before its
    // `callDestroyHook` runs this module's `onModuleDestroy` first (`shutDownFirst`), which marks
    // the coordinator closing. So by `setImmediate` a host close has begun or never will. A Nest
    // release that awaited I/O there would close the application twice: the consumer apps'
    // proof (`enableShutdownHooks` on Nest 11 and 12, each hook counted once) is what fails then.
    setImmediate(() => {
      if (!this.coordinator.applicationClosing) void this.closeApplication(signal);
    });
  }

  private async closeApplication(signal: NodeJS.Signals): Promise<void> {
    this.closedByUs = true;
    try {
      await this.closer.close(signal);
      this.logger.log('application closed, exiting', { signal });
      this.exit(0);
    } catch (error) {
      this.logger.error('shutdown failed', {
        signal,
        error: error instanceof Error ? error.message : String(error),
      });
      this.exit(1);
    }
  }

  private handleRepeat(signal: NodeJS.Signals): void {
    // Nest's enableShutdownHooks() removes its listener once the application is closed, then
    // sends the signal to the process again: only this listener is left to receive it.
    if (
      !this.closedByUs &&
      this.coordinator.applicationClosing &&
      process.listenerCount(signal) === 1
    ) {
      this.logger.log('application closed, exiting', { signal });
      return this.exit(0);
    }
    this.logger.warn('shutdown already in progress, signal ignored', {
      signal,
      first: this.received,
    });
  }

  private expire(): void {
    this.logger.error('shutdown deadline passed, exiting', {
      shutdownTimeoutMs: this.options.shutdownTimeoutMs,
      phase: this.coordinator.phase,
    });
    this.exit(1);
  }

  private exit(code: number): void {
    clearTimeout(this.deadline);
    this.unsubscribe();
    this.terminate(code);
  }

  private unsubscribe(): void {
    for (const signal of this.options.signals) process.off(signal, this.onSignal);
  }
}
