import type { ModuleRef, NestContainer } from '@nestjs/core';

/**
 * Nest's container behind a `ModuleRef`. Nest gives a provider no handle on the application,
 * yet the module must close the host's application (when it owns the signals) and order its
 * own shutdown hooks first; both need the container, which `ModuleRef` holds in a protected
 * field (stable from Nest 8 to 11).
 */
export function nestContainerOf(moduleRef: ModuleRef): NestContainer {
  const container = (moduleRef as unknown as { container?: NestContainer }).container;
  if (!container?.getModules)
    throw new Error(
      'nest-agent-graceful-shutdown: this version of @nestjs/core is not supported (no container behind ModuleRef)',
    );
  return container;
}
