import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { closeApplication } from './nest-internals.js';

/**
 * Closes the host application through Nest's own sequence, as `app.close()` does: every
 * `onModuleDestroy`, then `beforeApplicationShutdown`, then `onApplicationShutdown`, module by
 * module in Nest's order, each exactly once. The HTTP server is closed by the shutdown itself.
 */
@Injectable()
export class ApplicationCloser {
  constructor(private readonly moduleRef: ModuleRef) {}

  close(signal?: string): Promise<void> {
    return closeApplication(this.moduleRef, signal);
  }
}
