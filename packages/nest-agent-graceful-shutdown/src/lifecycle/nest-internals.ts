import type { Type } from '@nestjs/common';
import { NestApplicationContext, type ModuleRef, type NestContainer } from '@nestjs/core';

// Every use the module makes of a Nest internal is in this file, each with why no public API
// does it. `nest-internals.spec.ts` proves each on a real Nest application context; the
// library's specs run on the oldest Nest the package supports (11.0) and on the newest (12), so
// the first major that breaks one fails there, naming it.

/**
 * Nest's container behind a `ModuleRef`, in its protected `container` field (there since Nest
 * 8). Nest gives a provider no handle on its application: no public API returns the container
 * or the application a module runs in, and the two uses below need it.
 */
function nestContainerOf(moduleRef: ModuleRef): NestContainer {
  const container = (moduleRef as unknown as { container?: NestContainer }).container;
  if (!container?.getModules) {
    throw new Error(
      'nest-agent-graceful-shutdown: this version of @nestjs/core is not supported (no container behind ModuleRef)',
    );
  }
  return container;
}

/**
 * Makes `moduleClass` the first module whose `onModuleDestroy`, `beforeApplicationShutdown`
 * and `onApplicationShutdown` run, whoever closes the application (`app.close()`, Nest's
 * `enableShutdownHooks()` or this module). Nest calls those hooks module by module from the
 * smallest `distance` (the root module is 1, global modules the largest); a distance of 0 puts
 * the module before the root, so its drain finishes before any host hook runs. No public API
 * orders modules' hooks: Nest derives the distance from the import graph, and a module imported
 * by the root always comes after it. Must be called before `app.init()`, which fixes the order:
 * the module's constructor is the place.
 */
export function shutDownFirst(moduleRef: ModuleRef, moduleClass: Type<unknown>): void {
  for (const module of nestContainerOf(moduleRef).getModules().values()) {
    if (module.metatype === moduleClass) module.distance = 0;
  }
}

/**
 * Closes the host application through Nest's own sequence, as `app.close()` does: every
 * `onModuleDestroy`, then `beforeApplicationShutdown`, then `onApplicationShutdown`, module by
 * module in Nest's order, each exactly once, with `signal`. A provider has no handle on the
 * application to call `close` on; a `NestApplicationContext` over the same container runs the
 * same hooks (and an HTTP application's server is closed by the shutdown itself).
 */
export function closeApplication(moduleRef: ModuleRef, signal?: string): Promise<void> {
  return new NestApplicationContext(nestContainerOf(moduleRef)).close(signal);
}
