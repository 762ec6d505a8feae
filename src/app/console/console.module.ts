import { Module } from '@nestjs/common';
import { ConsoleAssets } from './console-assets';
import { ConsoleController } from './console.controller';

/** The console page (`CONSOLE_ENABLED`): a browser client of the public API, served by the service. */
@Module({ controllers: [ConsoleController], providers: [ConsoleAssets] })
export class ConsoleModule {}
