import {
  ConfigurableModuleBuilder,
  type InjectionToken,
  type Provider,
  type Type,
} from '@nestjs/common';
import type { GracefulShutdownModuleOptions } from './options/graceful-shutdown-options.interface.js';
import { SESSION_STORE, type SessionStore } from './contracts/session-store.interface.js';
import { THREAD_ACCESS_POLICY, type ThreadAccessPolicy } from './threads/thread-access.policy.js';

/**
 * How the host provides one of the module's seams, as a Nest provider without its token.
 * `useExisting` and `inject` resolve in the module's scope: global providers, or the `imports`
 * of `forRootAsync`.
 */
export type SeamProvider<T> =
  | { useClass: Type<T> }
  | { useExisting: InjectionToken }
  | { useValue: T }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the arguments are whatever `inject` names, as in Nest's own FactoryProvider
  | { useFactory: (...args: any[]) => T | Promise<T>; inject?: InjectionToken[] };

/** Module-level settings of `forRoot` / `forRootAsync` that add providers, so they sit beside the options. */
export interface GracefulShutdownModuleExtras {
  /**
   * Make the module's services injectable everywhere without importing it again.
   * @default true
   */
  isGlobal?: boolean;
  /**
   * The session store. Run the contract suite of `nest-agent-graceful-shutdown/testing`
   * against your own.
   * @default TypeOrmSessionStore on the TypeORM data source `dataSourceName`
   */
  store?: SeamProvider<SessionStore>;
  /**
   * Who may run, read and stop a thread.
   * @default CreatorOwnsThread: the user who created a thread, and no one else
   */
  threadAccess?: SeamProvider<ThreadAccessPolicy>;
}

const seam = <T>(provide: symbol, spec: SeamProvider<T>): Provider =>
  ({ provide, ...spec }) as Provider;

export const {
  ConfigurableModuleClass: GracefulShutdownConfigurableModule,
  MODULE_OPTIONS_TOKEN: GRACEFUL_SHUTDOWN_MODULE_OPTIONS,
  OPTIONS_TYPE: GRACEFUL_SHUTDOWN_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: GRACEFUL_SHUTDOWN_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<GracefulShutdownModuleOptions>()
  .setClassMethodName('forRoot')
  .setExtras<GracefulShutdownModuleExtras>({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
    // Later providers of a token win: these replace the module's defaults.
    providers: [
      ...(definition.providers ?? []),
      ...(extras.store ? [seam(SESSION_STORE, extras.store)] : []),
      ...(extras.threadAccess ? [seam(THREAD_ACCESS_POLICY, extras.threadAccess)] : []),
    ],
  }))
  .build();
