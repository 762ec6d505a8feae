import { Inject, Injectable } from '@nestjs/common';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import { SIGNAL_BUS, type SignalBus } from '../contracts/signal-bus.interface.js';
import type { AgentObserver } from './agent-observer.interface.js';
import { EventLogger } from '../logging/event-logger.js';

type Observation = { [K in keyof AgentObserver]-?: NonNullable<AgentObserver[K]> };

/**
 * What the module measures, handed to every observer: the one place metrics, and anything
 * else a host wants to count, subscribe to. Also answers the instance's current state (runs in
 * flight, bus connected) for gauges read at scrape time.
 *
 * @example
 * const stop = telemetry.observe({ runEnded: (run, outcome) => counter.inc({ outcome }) });
 */
@Injectable()
export class AgentTelemetry {
  private readonly logger = new EventLogger('AgentTelemetry');
  private readonly observers = new Set<AgentObserver>();

  constructor(
    private readonly registry: InFlightRunRegistry,
    @Inject(SIGNAL_BUS) private readonly bus: SignalBus,
  ) {}

  /** Runs executing on this instance now. */
  get runsInFlight(): number {
    return this.registry.size;
  }

  /** True while the signal bus reaches other instances (always, for the in-process bus). */
  get signalBusConnected(): boolean {
    return this.bus.health?.().connected ?? true;
  }

  /**
   * Adds an observer.
   * @returns a function that removes it.
   */
  observe(observer: AgentObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Hands one observation to every observer that takes it; an observer's error is logged, never thrown. */
  notify<K extends keyof AgentObserver>(kind: K, ...args: Parameters<Observation[K]>): void {
    for (const observer of this.observers) {
      const method = observer[kind] as ((...a: Parameters<Observation[K]>) => void) | undefined;
      if (!method) continue;
      try {
        method.apply(observer, args);
      } catch (error) {
        this.logger.warn('telemetry observer failed', { kind, error: String(error) });
      }
    }
  }
}
