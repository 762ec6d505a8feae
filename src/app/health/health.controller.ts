import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ShutdownHealthIndicator } from '../../lib';
import { Public } from '../auth/public.decorator';

/** Probes: liveness stays up during a shutdown; readiness fails from its first moment. */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly shutdown: ShutdownHealthIndicator,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.shutdown.check(), () => this.database.pingCheck('database', { timeout: 2_000 })]);
  }
}
