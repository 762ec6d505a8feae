import type { Type } from '@nestjs/common';
import type { NestContainer } from '@nestjs/core';

/**
 * Makes `moduleClass` the first module whose `onModuleDestroy`, `beforeApplicationShutdown`
 * and `onApplicationShutdown` run, whoever closes the application (`app.close()`, Nest's
 * `enableShutdownHooks()` or this module). Nest calls those hooks module by module, from the
 * smallest `distance` (the root module is 1, global modules the largest); a distance of 0 puts
 * the module before the root, so its drain finishes before any host hook runs. Must be called
 * before `app.init()`, which fixes the order: the module's constructor is the place.
 */
export function shutDownFirst(container: NestContainer, moduleClass: Type<unknown>): void {
  for (const moduleRef of container.getModules().values()) {
    if (moduleRef.metatype === moduleClass) moduleRef.distance = 0;
  }
}
