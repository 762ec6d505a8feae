import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { SessionStore } from '../contracts/session-store.interface.js';
import { GracefulShutdownModule } from '../graceful-shutdown.module.js';

/** A Nest application of the module alone on `store`, initialised, with signals left to the test. */
export async function startModuleApp(store: SessionStore): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: store },
      }),
    ],
  }).compile();
  const app = moduleRef.createNestApplication();
  await app.init();
  return app;
}
