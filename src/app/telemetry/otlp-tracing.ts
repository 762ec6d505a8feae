import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';

/**
 * Exports the runs' spans over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (the
 * exporter reads it and the other standard `OTEL_EXPORTER_OTLP_*` variables itself); without
 * it no SDK is installed and the library's spans cost nothing. Spans still buffered are
 * flushed at shutdown, after the drain.
 */
@Injectable()
export class OtlpTracing implements OnApplicationShutdown {
  private readonly logger = new Logger('Tracing');
  private readonly provider?: TracerProvider;

  constructor(config: ConfigService) {
    const app = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
    if (!app.otlpEndpoint) return;
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': app.serviceName }),
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
    });
    // What NodeTracerProvider.register() did before SDK 3: the provider, a context manager that
    // follows async calls (so a tool's span nests under its run's), and W3C trace context.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(this.provider);
    this.logger.log({
      msg: 'exporting traces',
      endpoint: app.otlpEndpoint,
      serviceName: app.serviceName,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.provider
      ?.shutdown()
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'spans not flushed', error: String(error) }),
      );
  }
}
