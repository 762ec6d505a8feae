import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';

/**
 * Readiness: down from the first moment of a shutdown, so the load balancer stops sending
 * new runs while in-flight ones drain. Add it to a terminus readiness check.
 */
@Injectable()
export class ShutdownHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly coordinator: ShutdownCoordinator,
    private readonly registry: InFlightRunRegistry,
  ) {}

  check(key = 'shutdown'): HealthIndicatorResult {
    const indicator = this.health.check(key);
    const details = { phase: this.coordinator.phase, inFlightRuns: this.registry.size };
    return this.coordinator.isShuttingDown ? indicator.down(details) : indicator.up(details);
  }
}
