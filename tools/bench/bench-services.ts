import Redis from 'ioredis';
import { ensureLocalServicePackages, PostgresServer, RedisServer } from 'dev-services';

/** Runs `work` against a throwaway redis-server, destroyed afterwards even when `work` throws. */
export async function withRedisServer<T>(work: (server: RedisServer) => Promise<T>): Promise<T> {
  await ensureLocalServicePackages();
  const server = await RedisServer.start();
  try {
    return await work(server);
  } finally {
    await server.destroy();
  }
}

/** Runs `work` against a throwaway PostgreSQL cluster, destroyed afterwards even when `work` throws. */
export async function withPostgresServer<T>(
  work: (server: PostgresServer) => Promise<T>,
): Promise<T> {
  await ensureLocalServicePackages();
  const server = await PostgresServer.start();
  try {
    return await work(server);
  } finally {
    await server.destroy();
  }
}

/** Runs `work` against a throwaway PostgreSQL cluster and redis-server, the stores several instances share; both destroyed afterwards. */
export function withPostgresAndRedis<T>(
  work: (postgres: PostgresServer, redis: RedisServer) => Promise<T>,
): Promise<T> {
  return withPostgresServer((postgres) => withRedisServer((redis) => work(postgres, redis)));
}

/** Runs `work` with a plain ioredis client on `url`, quit afterwards even when `work` throws. */
export async function withRedisClient<T>(
  url: string,
  work: (client: Redis) => Promise<T>,
): Promise<T> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    return await work(client);
  } finally {
    await client.quit().catch(() => client.disconnect());
  }
}
