import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import {
  ShutdownHealthIndicator,
  SignalBusHealthIndicator,
} from 'nest-agent-graceful-shutdown/terminus';
import { Public } from '../auth/public.decorator';

/** Probes: liveness stays up during a shutdown; readiness fails from its first moment, and reports the signal bus. */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly shutdown: ShutdownHealthIndicator,
    private readonly database: TypeOrmHealthIndicator,
    private readonly signals: SignalBusHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.shutdown.check(),
      () => this.database.pingCheck('database', { timeout: 2_000 }),
      // Always up: with Redis out, cancels fall back to this instance; the details say so.
      () => this.signals.check(),
    ]);
  }
}
