import { Controller, Get, Header, Inject, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AGENT_METRICS_REGISTRY } from 'nest-agent-graceful-shutdown/metrics';
import { Registry } from 'prom-client';
import { Public } from '../auth/public.decorator';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';

/**
 * `GET /metrics`: Prometheus text format, unauthenticated like the probes; 404 with
 * `METRICS_ENABLED=false`, and with `METRICS_PORT` set (`MetricsServer` serves it there).
 */
@Public()
@Controller('metrics')
export class MetricsController {
  private readonly enabled: boolean;
  private readonly elsewhere?: number;

  constructor(
    @Inject(AGENT_METRICS_REGISTRY) private readonly registry: Registry,
    config: ConfigService,
  ) {
    const { metricsEnabled, metricsPort } = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
    this.enabled = metricsEnabled;
    this.elsewhere = metricsPort;
  }

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  async scrape(): Promise<string> {
    if (!this.enabled)
      throw new NotFoundException('metrics are turned off (METRICS_ENABLED=false)');
    if (this.elsewhere !== undefined)
      throw new NotFoundException('metrics are served on their own port (METRICS_PORT)');
    return this.registry.metrics();
  }
}
