import Redis from 'ioredis';
import { waitFor } from './wait-for';
import { ensureLocalServicePackages } from './debian-packages';
import { RedisServer } from './redis-server';

/** The first run installs the packages with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;

/** A client that fails fast instead of retrying, so a stopped server shows up as an error. */
function client(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined); // errors surface through the commands' promises
  return redis;
}

describe('RedisServer', () => {
  const servers: RedisServer[] = [];
  const clients: Redis[] = [];

  async function startServer(): Promise<RedisServer> {
    const server = await RedisServer.start();
    servers.push(server);
    return server;
  }

  async function connected(url: string): Promise<Redis> {
    const redis = client(url);
    clients.push(redis);
    await redis.connect();
    return redis;
  }

  beforeAll(async () => {
    await ensureLocalServicePackages();
  }, INSTALL_TIMEOUT_MS);

  afterEach(async () => {
    // Disconnecting an ended client arms an ioredis timer that nothing clears: skip those.
    for (const redis of clients.splice(0)) if (redis.status !== 'end') redis.disconnect();
    await Promise.all(servers.splice(0).map((server) => server.destroy()));
  });

  it('serves SET and GET to an ioredis client', async () => {
    const server = await startServer();
    const redis = await connected(server.url);

    await redis.set('greeting', 'hello');

    expect(await redis.get('greeting')).toBe('hello');
  });

  it('reports a loopback url for its port', async () => {
    const server = await startServer();

    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
  });

  it('fails commands once stopped', async () => {
    const server = await startServer();
    const redis = await connected(server.url);

    await server.stop();

    await waitFor(() => redis.status === 'end', 'the client to see the connection close', 5_000);
    await expect(redis.ping()).rejects.toThrow();
  });

  it('refuses new connections once stopped', async () => {
    const server = await startServer();

    await server.stop();

    await expect(connected(server.url)).rejects.toThrow(/ECONNREFUSED|Connection is closed/);
  });

  it('serves a new client on the same port after startAgain()', async () => {
    const server = await startServer();
    const { port } = server;
    await server.stop();

    await server.startAgain();
    const redis = await connected(server.url);

    expect(server.port).toBe(port);
    expect(await redis.ping()).toBe('PONG');
  });

  it('starts empty again, since nothing is persisted', async () => {
    const server = await startServer();
    await (await connected(server.url)).set('lost', '1');
    await server.stop();

    await server.startAgain();

    expect(await (await connected(server.url)).get('lost')).toBeNull();
  });
});
