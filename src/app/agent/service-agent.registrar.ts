import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { AgentRegistry } from 'nest-agent-graceful-shutdown';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { DemoLedger } from '../demo/demo-ledger';
import { serviceAgent } from './service-agent';

/** The name the reference agent is registered under, on every instance alike. */
export const SERVICE_AGENT_NAME = 'reference-agent';

/** Registers the reference agent at boot, so any instance can continue any of its runs. */
@Injectable()
export class ServiceAgentRegistrar implements OnModuleInit {
  constructor(
    private readonly registry: AgentRegistry,
    private readonly config: ConfigService,
    private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    this.registry.register(
      SERVICE_AGENT_NAME,
      serviceAgent(
        this.config.getOrThrow<AppConfig>(APP_CONFIG_KEY),
        new DemoLedger(this.dataSource),
      ),
    );
  }
}
