import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ShutdownHealthIndicator, SignalBusHealthIndicator } from '../../lib';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [ShutdownHealthIndicator, SignalBusHealthIndicator],
})
export class HealthModule {}
