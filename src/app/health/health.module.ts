import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import {
  ShutdownHealthIndicator,
  SignalBusHealthIndicator,
} from 'nest-agent-graceful-shutdown/terminus';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [ShutdownHealthIndicator, SignalBusHealthIndicator],
})
export class HealthModule {}
