import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GracefulShutdownModule } from 'nest-agent-graceful-shutdown';
import { AuthModule } from './auth/auth.module';
import { APP_CONFIG_KEY, loadAppConfig, type AppConfig } from './config/app-config';
import { ConsoleModule } from './console/console.module';
import { databaseOptions } from './database/database-options';
import { openDataSource } from './database/open-data-source';
import { HealthModule } from './health/health.module';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { JsonBodyInterceptor } from './http/json-body.interceptor';
import { RunsController } from './runs/runs.controller';
import { ServiceAgentRegistrar } from './agent/service-agent.registrar';
import { ThreadsController } from './threads/threads.controller';
import { LoggingModule } from './logging/logging.module';
import { RequestLogContext } from './logging/request-log-context.interceptor';
import { MetricsModule } from './metrics/metrics.module';
import { PodDeletionCostModule } from './kubernetes/pod-deletion-cost.module';
import { OtlpTracing } from './telemetry/otlp-tracing';

const appConfig = (config: ConfigService) => config.getOrThrow<AppConfig>(APP_CONFIG_KEY);

/** The reference agent service: the demo agent behind the contract's HTTP API. */
@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      load: [() => ({ [APP_CONFIG_KEY]: loadAppConfig(process.env) })],
    }),
    LoggingModule,
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => databaseOptions(appConfig(config)),
      dataSourceFactory: (options) => openDataSource(options!),
    }),
    GracefulShutdownModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => {
        const app = appConfig(config);
        return {
          shutdown: { drainTimeoutMs: app.drainTimeoutMs, timeoutMs: app.shutdownTimeoutMs },
          leases: { ttlMs: app.leaseTtlMs },
          signals:
            app.signals === 'redis'
              ? { redisUrl: app.redisUrl, redisCluster: app.redisCluster }
              : app.signals === 'postgres'
                ? { postgres: true }
                : {},
          runs: {
            partialOutput: app.partialOutput,
            sseHeartbeatMs: app.sseHeartbeatMs,
            resumeMode: app.resumeMode,
            onDisconnect: app.runOnDisconnect,
            agentVersion: app.agentVersion,
          },
          streams: { retentionMs: app.streamRetentionMs },
          limits: {
            maxActiveRunsPerUser: app.limits.maxRunsPerUser,
            maxMessagesPerRequest: app.limits.maxMessagesPerRequest,
            maxHistoryMessages: app.limits.maxHistoryMessages,
            maxThreadBytes: app.limits.maxThreadBytes,
          },
        };
      },
    }),
    AuthModule,
    HealthModule,
    MetricsModule,
    ConsoleModule,
    PodDeletionCostModule,
  ],
  controllers: [RunsController, ThreadsController],
  providers: [
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    // The body is read first (after the guards): the log context reads the run input's ids.
    { provide: APP_INTERCEPTOR, useClass: JsonBodyInterceptor },
    { provide: APP_INTERCEPTOR, useClass: RequestLogContext },
    ServiceAgentRegistrar,
    OtlpTracing,
  ],
})
export class AppModule {}
