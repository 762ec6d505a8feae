import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ModuleRef } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ShutdownCoordinator } from 'nest-agent-graceful-shutdown';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { REDACTED, redactUrl } from './redact-url';

/** A client's own request id is kept when it looks like one; anything else gets a fresh UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Credentials a line could carry if a serializer ever let headers through: censored by pino
 * whatever the serializers do.
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
];

/** Probes and scrapes come every few seconds: their lines would drown the rest. */
const QUIET_PATHS = ['/health/', '/metrics'];

/**
 * True once a shutdown has started. A shutdown ends every run stream at once, ten thousand of
 * them on a busy instance: their request lines, written to a stdout pipe, would hold the exit
 * up while the pipe drains, so successful requests log at debug then (the shutdown's own
 * 'runs drained' line counts the runs). Looked up at the first line: the coordinator is created
 * after the logger.
 */
function shutdownStarted(moduleRef: ModuleRef): () => boolean {
  let coordinator: ShutdownCoordinator | undefined;
  return () =>
    (coordinator ??= moduleRef.get(ShutdownCoordinator, { strict: false }))?.isShuttingDown ??
    false;
}

/**
 * A 503 answered while the instance shuts down: the drain's refusal of a new run (`SHUTTING_DOWN`,
 * with `Retry-After`), which the client retries elsewhere. A warn line without a stack, as any
 * other client-facing refusal: during a rollout there are many, and none is the service failing.
 */
function refusedByShutdown(
  res: ServerResponse & { err?: unknown },
  shuttingDown: () => boolean,
): boolean {
  return res.statusCode === 503 && res.err === undefined && shuttingDown();
}

function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * JSON logs through pino: one line per event, with the request id (`req.id`, also answered as
 * `X-Request-Id`) on every line written while a request is served, and the thread and run where
 * known (`RequestLogContext`). Headers are not logged, and `authorization`, `cookie` and
 * `set-cookie` are censored should one be; the request target is logged with the values of
 * credential-bearing query parameters (`access_token`, `code`, `api_key`…) replaced
 * (`redactUrl`). Message contents are never logged at the default level.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [ConfigService, ModuleRef],
      useFactory: (config: ConfigService, moduleRef: ModuleRef) => {
        const { logLevel } = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
        const shuttingDown = shutdownStarted(moduleRef);
        return {
          assignResponse: true,
          pinoHttp: {
            level: logLevel,
            genReqId: requestId,
            formatters: { level: (label: string) => ({ level: label }) },
            redact: { paths: REDACT_PATHS, censor: REDACTED },
            serializers: {
              req: (req: { id: string; method: string; url: string }) => ({
                id: req.id,
                method: req.method,
                url: redactUrl(req.url),
              }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
            customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
              refusedByShutdown(res, shuttingDown)
                ? 'warn'
                : error || res.statusCode >= 500
                  ? 'error'
                  : res.statusCode >= 400
                    ? 'warn'
                    : shuttingDown()
                      ? 'debug'
                      : 'info',
            // pino-http makes an error (with a stack) of every 5xx it logs: not of a shutdown's refusals.
            customErrorObject: (
              _req: IncomingMessage,
              res: ServerResponse,
              _error: Error,
              value: Record<string, unknown>,
            ) => (refusedByShutdown(res, shuttingDown) ? { ...value, err: undefined } : value),
            autoLogging: {
              ignore: (req: IncomingMessage) =>
                QUIET_PATHS.some((path) => req.url?.startsWith(path)),
            },
          },
        };
      },
    }),
  ],
})
export class LoggingModule {}
