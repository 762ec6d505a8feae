import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ShutdownHealthIndicator } from '../../lib';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [ShutdownHealthIndicator],
})
export class HealthModule {}
