import type { Server } from 'node:http';
import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { StopReason } from '../agent/stop-reason.js';
import { ShuttingDownError } from '../errors/shutting-down.error.js';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { reportAbandonedToolCalls } from './abandoned-tool-calls.js';
import { DrainTally } from './drain-tally.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import {
  ShutdownParticipants,
  type ParticipantOptions,
  type ShutdownHandler,
} from './shutdown-participants.js';
import { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import type { ShutdownPhaseLabel } from '../telemetry/agent-observer.interface.js';
import { EventLogger } from '../logging/event-logger.js';

/** How often connections that went idle during the server's close are closed, in milliseconds. */
const IDLE_SWEEP_MS = 50;

/** Where a shutdown stands. */
export type ShutdownPhase = 'serving' | 'draining' | 'interrupting' | 'closing' | 'done';

/**
 * Runs the drain once: refuse new runs (readiness fails), let in-flight runs and the host's
 * shutdown participants finish for `drainTimeoutMs`, stop the remaining runs at their next
 * safe point and wait until their state is durable, then close the HTTP server with its SSE
 * and keep-alive sockets. It starts at a signal or with the application's close: its module
 * closes first, so every host hook runs after the drain.
 *
 * @example
 * // a queue consumer joins the shutdown
 * coordinator.addHandler(() => consumer.pause(), { name: 'queue', timeoutMs: 5_000 });
 */
@Injectable()
export class ShutdownCoordinator implements OnModuleDestroy {
  private readonly logger = new EventLogger('GracefulShutdown');
  private readonly participants = new ShutdownParticipants();
  private current: ShutdownPhase = 'serving';
  private sequence?: Promise<void>;
  private drainEndsAt?: number;
  private closing = false;
  private readonly closeHandlers = new Set<() => void>();

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    private readonly registry: InFlightRunRegistry,
    @Optional() private readonly httpAdapterHost?: HttpAdapterHost,
    @Optional() private readonly telemetry?: AgentTelemetry,
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

  /** True once the application's close sequence has reached this module (whoever started it). */
  get applicationClosing(): boolean {
    return this.closing;
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

  /**
   * Joins the host's own work to the shutdown: `handler` runs when it starts, after the
   * earlier handlers, while runs drain; the shutdown waits for it up to `timeoutMs`.
   * @returns a function that unregisters the handler.
   */
  addHandler(handler: ShutdownHandler, options?: ParticipantOptions): () => void {
    return this.participants.addHandler(handler, options);
  }

  /**
   * Calls `handler` once every run is saved, just before the HTTP server closes: the moment
   * to end long-lived connections (joined run streams) with a word to their clients.
   * @returns a function that unregisters the handler.
   */
  onClosing(handler: () => void): () => void {
    this.closeHandlers.add(handler);
    return () => this.closeHandlers.delete(handler);
  }

  /** Holds a shutdown open until `work` settles, up to `timeoutMs` (a job in progress, a flush). */
  holdUntil(work: PromiseLike<unknown>, options?: ParticipantOptions): void {
    this.participants.holdUntil(work, options);
  }

  /** Starts the shutdown, or returns the one already under way. Rejects if runs could not be saved in time. */
  shutdown(reason = 'shutdown'): Promise<void> {
    this.sequence ??= this.run(reason);
    return this.sequence;
  }

  /** The application's close (a signal, `app.close()`, Nest's shutdown hooks) drains first. */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await this.shutdown('application close');
  }

  private async run(reason: string): Promise<void> {
    const { drainTimeoutMs, shutdownTimeoutMs } = this.options;
    const deadline = Date.now() + shutdownTimeoutMs;
    this.drainEndsAt = Date.now() + drainTimeoutMs;
    this.current = 'draining';
    const phases: Partial<Record<ShutdownPhaseLabel, number>> = {};
    const inFlight = this.registry.size;
    // How each run that ends from now on ended, as the drain saw it: the summary line's counts.
    const tally = new DrainTally();
    const stopCountingEnds = this.registry.onRunEnded((_run, stopReason) =>
      tally.count(stopReason),
    );
    const stopCountingTokens = this.telemetry?.observe({
      modelTokensDiscarded: (_run, tokens) => tally.discarded(tokens),
    });
    const stopCounting = () => (stopCountingEnds(), stopCountingTokens?.());
    let phaseStartedAt = performance.now();
    const phaseEnded = (phase: ShutdownPhaseLabel) => {
      const now = performance.now();
      phases[phase] = Math.round(now - phaseStartedAt);
      this.telemetry?.notify('shutdownPhaseEnded', phase, (now - phaseStartedAt) / 1_000);
      phaseStartedAt = now;
    };
    try {
      this.logger.log('shutdown started', {
        reason,
        inFlight: this.registry.size,
        drainTimeoutMs,
        shutdownTimeoutMs,
      });
      const participants = this.participants.settle(reason);
      const drained = await this.registry.waitUntilEmpty(drainTimeoutMs);
      phaseEnded('drain');
      if (!drained) {
        this.current = 'interrupting';
        await this.interruptRemaining(deadline);
        phaseEnded('interrupt');
      }
      await participants;
      phaseStartedAt = performance.now();
      this.current = 'closing';
      for (const handler of this.closeHandlers) {
        try {
          handler();
        } catch (error) {
          this.logger.warn('closing handler failed', { error: String(error) });
        }
      }
      await this.closeHttpServer(deadline);
      // A request admitted just before the shutdown may have started its run after the drain.
      await this.interruptRemaining(deadline);
      phaseEnded('close');
      if (this.registry.size > 0)
        throw new Error(
          `shutdown deadline of ${shutdownTimeoutMs} ms passed with ${this.registry.size} runs not saved`,
        );
      const abandonedToolCalls = reportAbandonedToolCalls(
        this.registry.toolCallsLeftRunning,
        this.logger,
        this.telemetry,
      );
      // One line for all the runs: each stopped run's own 'run ended' line is at debug level.
      this.logger.log('runs drained', {
        reason,
        inFlight,
        ...tally.totals,
        abandonedToolCalls,
        phaseMs: phases,
      });
    } finally {
      stopCounting();
      this.current = 'done';
    }
  }

  private async interruptRemaining(deadline: number): Promise<void> {
    while (this.registry.size > 0 && Date.now() < deadline) {
      this.logger.log('interrupting runs', { count: this.registry.size });
      for (const run of this.registry.list())
        run.control.requestStop(StopReason.Interrupted, 'shutdown');
      await this.registry.waitUntilEmpty(deadline - Date.now());
    }
  }

  private async closeHttpServer(deadline: number): Promise<void> {
    const server = this.httpAdapterHost?.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // A keep-alive connection whose last response (a run's stream) ends now goes idle later: closed as it does.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    const timer = setTimeout(
      () => server.closeAllConnections(),
      Math.max(0, Math.min(deadline - Date.now(), 2_000)),
    );
    timer.unref();
    await closed;
    clearInterval(sweep);
    clearTimeout(timer);
  }
}
