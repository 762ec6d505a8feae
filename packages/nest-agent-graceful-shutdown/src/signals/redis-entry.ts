/**
 * The `/redis` entry, loaded only when `signals.redisUrl` is set: `ioredis` is an optional
 * peer, so the root entry must not import it.
 */
export async function importRedisEntry(): Promise<typeof import('../redis')> {
  try {
    return await import('../redis');
  } catch (error) {
    throw new Error(`signals.redisUrl needs the optional peer dependency ioredis: npm install ioredis (${(error as Error).message})`);
  }
}
