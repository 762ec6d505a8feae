import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { register as globalRegistry, Registry, collectDefaultMetrics } from 'prom-client';
import { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import { AgentMetrics } from './agent-metrics.js';

/** Injection token of the registry the module's metrics are on. */
export const AGENT_METRICS_REGISTRY = Symbol('AGENT_METRICS_REGISTRY');

/** Options of `AgentMetricsModule.forRoot`. */
export interface AgentMetricsModuleOptions {
  /**
   * The registry to add the `agent_*` metrics to: yours, when the host already serves one.
   * @default prom-client's global registry
   */
  registry?: Registry;
  /**
   * Also collect prom-client's default process metrics (CPU, memory, event loop lag, GC) on
   * the registry. Leave off when the host collects them already: they register only once.
   * @default false
   */
  defaultMetrics?: boolean;
}

/**
 * Registers the module's Prometheus metrics on a registry and keeps them fed; needs
 * `GracefulShutdownModule` (global by default). Inject `AGENT_METRICS_REGISTRY` to serve them.
 *
 * @example
 * imports: [GracefulShutdownModule.forRoot({}), AgentMetricsModule.forRoot({ registry, defaultMetrics: true })]
 */
@Module({})
export class AgentMetricsModule implements OnApplicationShutdown {
  constructor(@Inject(AgentMetrics) private readonly metrics: AgentMetrics) {}

  static forRoot(options: AgentMetricsModuleOptions = {}): DynamicModule {
    const registry = options.registry ?? globalRegistry;
    return {
      module: AgentMetricsModule,
      providers: [
        { provide: AGENT_METRICS_REGISTRY, useValue: registry },
        {
          provide: AgentMetrics,
          inject: [AgentTelemetry],
          useFactory: (telemetry: AgentTelemetry) => {
            if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
            return new AgentMetrics(telemetry, registry);
          },
        },
      ],
      exports: [AGENT_METRICS_REGISTRY, AgentMetrics],
    };
  }

  /** The metrics leave the registry with the module: a registry outlives an application in tests. */
  onApplicationShutdown(): void {
    this.metrics.dispose();
  }
}
