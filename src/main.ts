import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import pino from 'pino';
import { AppModule } from './app/app.module';
import { loadAppConfig, type AppConfig } from './app/config/app-config';
import { answerClientErrors } from './app/http/client-error.handler';
import { deferContinue } from './app/http/expect-continue';
import { applyServerTimeouts } from './app/http/server-timeouts';

/** Lines written before the application's own logger exists, in the same JSON shape. */
const bootLogger = pino({
  formatters: { level: (label) => ({ level: label }) },
  base: { pid: process.pid, context: 'Bootstrap' },
});

async function bootstrap(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadAppConfig(process.env);
  } catch (error) {
    bootLogger.error({ msg: 'cannot start', error: (error as Error).message });
    process.exitCode = 1;
    return;
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  // Nothing tells a client which framework serves it.
  app.disable('x-powered-by');
  applyServerTimeouts(app.getHttpServer(), config.http);
  answerClientErrors(app.getHttpServer());
  // Bodies are read after authentication (`JsonBodyInterceptor`), and so is `Expect: 100-continue` answered.
  deferContinue(app.getHttpServer());
  await app.listen(config.port);
  bootLogger.info({
    msg: 'listening',
    port: config.port,
    ...(config.metricsPort ? { metricsPort: config.metricsPort } : {}),
    store: config.databaseUrl ? 'postgres' : 'sqlite',
    signals: config.signals,
  });
}

bootstrap().catch((error: unknown) => {
  // A failure after the configuration was read (the store unreachable, the port taken): named,
  // and the process ends, since connections opened on the way would keep it alive.
  bootLogger.error({
    msg: 'cannot start',
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  process.exit(1);
});
