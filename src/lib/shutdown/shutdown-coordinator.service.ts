import type { Server } from 'node:http';
import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { StopReason } from '../agent/stop-reason';
import { ShuttingDownError } from '../errors/shutting-down.error';
import { RESOLVED_SHUTDOWN_OPTIONS, type ResolvedShutdownOptions } from '../graceful-shutdown.constants';
import { InFlightRunRegistry } from './in-flight-run.registry';
import { PROCESS_TERMINATOR, type ProcessTerminator } from './process-terminator';

/** Where a shutdown stands. */
export type ShutdownPhase = 'serving' | 'draining' | 'interrupting' | 'closing' | 'done';

/**
 * Runs the shutdown sequence once: refuse new runs (readiness fails), let in-flight runs
 * drain for `drainTimeoutMs`, stop the rest at their next safe point and wait until their
 * state is durable, then close the HTTP server with its SSE and keep-alive sockets.
 * A hard deadline (`shutdownTimeoutMs`) ends the process if anything hangs.
 */
@Injectable()
export class ShutdownCoordinator implements BeforeApplicationShutdown {
  private readonly logger = new Logger('GracefulShutdown');
  private current: ShutdownPhase = 'serving';
  private sequence?: Promise<void>;
  private failed = false;
  private drainEndsAt?: number;

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    private readonly registry: InFlightRunRegistry,
    @Inject(PROCESS_TERMINATOR) private readonly terminate: ProcessTerminator,
    @Optional() private readonly httpAdapterHost?: HttpAdapterHost,
  ) {}

  get phase(): ShutdownPhase {
    return this.current;
  }

  /** True from the first moment of a shutdown: readiness fails and new runs are refused. */
  get isShuttingDown(): boolean {
    return this.current !== 'serving';
  }

  /** True once the drain is over: runs still going, or starting now, are stopped. */
  get isInterrupting(): boolean {
    return this.current === 'interrupting' || this.current === 'closing' || this.current === 'done';
  }

  /**
   * During the drain, the milliseconds left before remaining runs are stopped; 0 once they
   * are being stopped; undefined while serving.
   */
  get drainTimeLeftMs(): number | undefined {
    if (this.drainEndsAt === undefined) return undefined;
    return this.isInterrupting ? 0 : Math.max(0, this.drainEndsAt - Date.now());
  }

  /** Throws `ShuttingDownError` (503 with Retry-After) once a shutdown has started. */
  assertAcceptingRuns(): void {
    if (this.isShuttingDown) throw new ShuttingDownError(this.options.retryAfterSeconds);
  }

  /** Starts the shutdown, or returns the one already under way. */
  shutdown(reason = 'shutdown'): Promise<void> {
    this.sequence ??= this.run(reason);
    return this.sequence;
  }

  /** `app.close()` runs the same sequence as a signal. */
  async beforeApplicationShutdown(signal?: string): Promise<void> {
    await this.shutdown(signal ?? 'application close');
  }

  private async run(reason: string): Promise<void> {
    const { drainTimeoutMs, shutdownTimeoutMs } = this.options;
    const deadline = Date.now() + shutdownTimeoutMs;
    this.drainEndsAt = Date.now() + drainTimeoutMs;
    this.current = 'draining';
    const hardStop = setTimeout(() => this.fail(`shutdown deadline of ${shutdownTimeoutMs} ms passed`), shutdownTimeoutMs);
    hardStop.unref();
    try {
      this.logger.log({ msg: 'shutdown started', reason, inFlight: this.registry.size, drainTimeoutMs, shutdownTimeoutMs });
      const drained = await this.registry.waitUntilEmpty(drainTimeoutMs);
      if (!drained) {
        this.current = 'interrupting';
        await this.interruptRemaining(deadline);
      }
      this.current = 'closing';
      await this.closeHttpServer(deadline);
      // A request admitted just before the shutdown may have started its run after the drain.
      await this.interruptRemaining(deadline);
      // The deadline's timer and the last wait may expire together: fail here rather than exit 0.
      if (this.registry.size > 0) throw this.fail(`shutdown deadline passed with ${this.registry.size} runs in flight`);
      this.logger.log({ msg: 'shutdown complete' });
    } finally {
      clearTimeout(hardStop);
      this.current = 'done';
    }
  }

  /** Ends the process with 1, once, and returns the error for the caller to throw. */
  private fail(reason: string): Error {
    if (!this.failed) {
      this.failed = true;
      this.logger.error({ msg: 'shutdown failed, exiting', reason, inFlight: this.registry.size });
      this.terminate(1);
    }
    return new Error(reason);
  }

  private async interruptRemaining(deadline: number): Promise<void> {
    while (this.registry.size > 0 && Date.now() < deadline) {
      this.logger.log({ msg: 'interrupting runs', count: this.registry.size });
      for (const run of this.registry.list()) run.control.requestStop(StopReason.Interrupted, 'shutdown');
      await this.registry.waitUntilEmpty(deadline - Date.now());
    }
  }

  private async closeHttpServer(deadline: number): Promise<void> {
    const server = this.httpAdapterHost?.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), Math.max(0, Math.min(deadline - Date.now(), 2_000)));
    timer.unref();
    await closed;
    clearTimeout(timer);
  }
}
