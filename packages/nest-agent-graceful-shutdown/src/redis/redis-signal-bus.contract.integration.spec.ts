import { ensureLocalServicePackages, RedisServer } from 'dev-services';
import { describeSignalBusContract } from '../testing/signal-bus.contract.js';
import { RecordingLogger } from './recording-logger.fixtures.js';
import { RedisSignalBus } from './redis-signal-bus.js';

/** The first run may install redis-server with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;

let server: RedisServer;
let suites = 0;

beforeAll(async () => {
  await ensureLocalServicePackages();
  server = await RedisServer.start();
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await server?.destroy();
});

describeSignalBusContract('RedisSignalBus', async () => {
  const keyPrefix = `contract-${++suites}:`;
  const buses: RedisSignalBus[] = [];
  return {
    async instances(count) {
      for (let index = 0; index < count; index++)
        buses.push(
          new RedisSignalBus({ url: server.url, keyPrefix, logger: new RecordingLogger() }),
        );
      await Promise.all(buses.map((bus) => bus.connect()));
      return buses;
    },
    dispose: async () => void (await Promise.all(buses.map((bus) => bus.close()))),
  };
});
