import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface';

export const {
  ConfigurableModuleClass: GracefulShutdownConfigurableModule,
  MODULE_OPTIONS_TOKEN: GRACEFUL_SHUTDOWN_MODULE_OPTIONS,
  OPTIONS_TYPE: GRACEFUL_SHUTDOWN_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: GRACEFUL_SHUTDOWN_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<GracefulShutdownModuleOptions>()
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();
