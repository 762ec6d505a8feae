import { Module } from '@nestjs/common';
import { AgentMetricsModule } from 'nest-agent-graceful-shutdown/metrics';
import { Registry } from 'prom-client';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';

/**
 * The module's `agent_*` metrics and the process's default metrics, on a registry of the
 * service's own; served on the API port, or on `METRICS_PORT` when set.
 */
@Module({
  imports: [AgentMetricsModule.forRoot({ registry: new Registry(), defaultMetrics: true })],
  controllers: [MetricsController],
  providers: [MetricsServer],
})
export class MetricsModule {}
