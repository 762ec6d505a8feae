import { createServer, type Server, type ServerResponse } from 'node:http';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AGENT_METRICS_REGISTRY } from 'nest-agent-graceful-shutdown/metrics';
import { Registry } from 'prom-client';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';

/** How long closing the metrics port may take before its connections are cut, in milliseconds. */
const CLOSE_TIMEOUT_MS = 1_000;

/**
 * `GET /metrics` on `METRICS_PORT`, a port of its own, when it is set (the API port then answers
 * 404 there): whatever exposes the API never exposes the metrics. Listens at bootstrap, so a
 * port in use refuses the boot; closes at shutdown, after the drain, so the last scrapes still
 * see the shutdown's metrics, and leaves no handle behind. Any other path is 404.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private readonly port?: number;
  private server?: Server;

  constructor(
    @Inject(AGENT_METRICS_REGISTRY) private readonly registry: Registry,
    config: ConfigService,
  ) {
    const { metricsEnabled, metricsPort } = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
    this.port = metricsEnabled ? metricsPort : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.port === undefined) return;
    const server = createServer(
      (request, response) => void this.answer(request.method, request.url, response),
    );
    server.keepAliveTimeout = 5_000;
    server.headersTimeout = 5_000;
    server.requestTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log({ msg: 'metrics listening', port: this.port });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), CLOSE_TIMEOUT_MS).unref();
    try {
      await closed;
    } finally {
      clearTimeout(timer);
    }
  }

  private async answer(
    method: string | undefined,
    url: string | undefined,
    response: ServerResponse,
  ): Promise<void> {
    const path = url?.split('?')[0];
    if (path !== '/metrics' || (method !== 'GET' && method !== 'HEAD')) {
      response
        .writeHead(404, { 'Content-Type': 'application/json' })
        .end(
          JSON.stringify({ statusCode: 404, code: 'NOT_FOUND', message: 'only GET /metrics here' }),
        );
      return;
    }
    try {
      const body = await this.registry.metrics();
      response
        .writeHead(200, {
          'Content-Type': Registry.PROMETHEUS_CONTENT_TYPE,
          'Cache-Control': 'no-store',
        })
        .end(method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.logger.error({ msg: 'metrics failed', error: (error as Error).message });
      response
        .writeHead(500, { 'Content-Type': 'application/json' })
        .end(
          JSON.stringify({ statusCode: 500, code: 'INTERNAL_ERROR', message: 'internal error' }),
        );
    }
  }
}
