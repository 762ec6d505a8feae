import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { SIGNAL_BUS, type SignalBus } from '../contracts/signal-bus.interface.js';

/**
 * Reports how cancels travel between instances. Always up: while Redis is out, runs go on
 * and a cancel reaches the runs of the instance that took it, so taking the instance out
 * of service would only make things worse. The details tell an operator about the fallback.
 */
@Injectable()
export class SignalBusHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(SIGNAL_BUS) private readonly bus: SignalBus,
  ) {}

  check(key = 'signals'): HealthIndicatorResult {
    // A bus without health() has no link to lose.
    const { transport, connected } = this.bus.health?.() ?? {
      transport: 'in-process',
      connected: true,
    };
    return this.health
      .check(key)
      .up({ transport, connected, fallback: connected ? null : 'local' });
  }
}
