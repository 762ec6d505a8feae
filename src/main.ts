import 'reflect-metadata';
import { ConsoleLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app/app.module';
import { loadAppConfig, type AppConfig } from './app/config/app-config';
import { jsonBodyParser } from './app/http/json-body.parser';

async function bootstrap(): Promise<void> {
  const logger = new ConsoleLogger({ json: true, colors: false });
  let config: AppConfig;
  try {
    config = loadAppConfig(process.env);
  } catch (error) {
    logger.error({ msg: 'cannot start', error: (error as Error).message }, undefined, 'Bootstrap');
    process.exitCode = 1;
    return;
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger, bodyParser: false, abortOnError: false });
  app.use(jsonBodyParser(config.bodyLimit));
  await app.listen(config.port);
  logger.log(
    { msg: 'listening', port: config.port, store: config.databaseUrl ? 'postgres' : 'sqlite', signals: config.redisUrl ? 'redis' : 'in-process' },
    'Bootstrap',
  );
}

void bootstrap();
