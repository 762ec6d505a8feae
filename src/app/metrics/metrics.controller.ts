import { Controller, Get, Header, Inject, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AGENT_METRICS_REGISTRY } from 'nest-agent-graceful-shutdown/metrics';
import { Registry } from 'prom-client';
import { Public } from '../auth/public.decorator';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';

/** `GET /metrics`: Prometheus text format, unauthenticated like the probes; 404 with `METRICS_ENABLED=false`. */
@Public()
@Controller('metrics')
export class MetricsController {
  private readonly enabled: boolean;

  constructor(
    @Inject(AGENT_METRICS_REGISTRY) private readonly registry: Registry,
    config: ConfigService,
  ) {
    this.enabled = config.getOrThrow<AppConfig>(APP_CONFIG_KEY).metricsEnabled;
  }

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  async scrape(): Promise<string> {
    if (!this.enabled) throw new NotFoundException('metrics are turned off (METRICS_ENABLED=false)');
    return this.registry.metrics();
  }
}
