import 'reflect-metadata';
import {
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { closeApplication, shutDownFirst } from './nest-internals.js';

/** A provider that records its shutdown hooks in `calls`, under `name`. */
function recorder(name: string, calls: string[]) {
  @Injectable()
  class Recorder implements OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
    onModuleDestroy(): void {
      calls.push(`${name} destroy`);
    }
    beforeApplicationShutdown(signal?: string): void {
      calls.push(`${name} before ${signal ?? '-'}`);
    }
    onApplicationShutdown(signal?: string): void {
      calls.push(`${name} shutdown ${signal ?? '-'}`);
    }
  }
  return Recorder;
}

/** A root module importing a feature module that, with `first`, asks to shut down first, as the graceful-shutdown module does. */
function application(calls: string[], first: boolean) {
  const FeatureHooks = recorder('feature', calls);
  @Module({ providers: [FeatureHooks] })
  class FeatureModule {
    constructor(moduleRef: ModuleRef) {
      if (first) shutDownFirst(moduleRef, FeatureModule);
    }
  }
  @Module({ imports: [FeatureModule], providers: [recorder('root', calls)] })
  class RootModule {}
  return NestFactory.createApplicationContext(RootModule, { logger: false });
}

describe("Nest's internals the module relies on", () => {
  it("runs a feature module's hooks after the root's when nothing reorders them", async () => {
    const calls: string[] = [];
    const app = await application(calls, false);

    await app.close();

    expect(calls.indexOf('root destroy')).toBeLessThan(calls.indexOf('feature destroy'));
  });

  it("puts a module's shutdown hooks before the root's with shutDownFirst (Module.distance)", async () => {
    const calls: string[] = [];
    const app = await application(calls, true);

    await app.close();

    expect(calls.filter((call) => call.endsWith('destroy'))).toEqual([
      'feature destroy',
      'root destroy',
    ]);
    expect(calls.filter((call) => call.startsWith('feature'))).toHaveLength(3);
  });

  it("closes the application from a provider's ModuleRef, each hook once with the signal (ModuleRef.container)", async () => {
    const calls: string[] = [];
    const app = await application(calls, true);

    await closeApplication(app.get(ModuleRef), 'SIGTERM');

    expect(calls).toEqual([
      'feature destroy',
      'root destroy',
      'feature before SIGTERM',
      'root before SIGTERM',
      'feature shutdown SIGTERM',
      'root shutdown SIGTERM',
    ]);
  });
});
