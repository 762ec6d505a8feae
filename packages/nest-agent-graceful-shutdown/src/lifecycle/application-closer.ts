import { Injectable } from '@nestjs/common';
import { ModuleRef, NestApplicationContext } from '@nestjs/core';
import { nestContainerOf } from './nest-container.js';

/**
 * Closes the host application through Nest's own sequence, as `app.close()` does: every
 * `onModuleDestroy`, then `beforeApplicationShutdown`, then `onApplicationShutdown`, module by
 * module in Nest's order, each exactly once. The HTTP server is closed by the shutdown itself.
 */
@Injectable()
export class ApplicationCloser {
  constructor(private readonly moduleRef: ModuleRef) {}

  close(signal?: string): Promise<void> {
    return new NestApplicationContext(nestContainerOf(this.moduleRef)).close(signal);
  }
}
