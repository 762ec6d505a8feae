import { redisConnection } from './redis-entry.js';

describe('redisConnection', () => {
  it('connects to the URL, as a cluster seed node when redisCluster is set', () => {
    expect(redisConnection({ redisUrl: 'redis://a:6379', redisCluster: false })).toEqual({
      url: 'redis://a:6379',
      cluster: false,
    });
    expect(redisConnection({ redisUrl: 'redis://a:6379', redisCluster: true })).toEqual({
      url: 'redis://a:6379',
      cluster: true,
    });
  });

  it('copies a client given instead of a URL', () => {
    const client = { isCluster: true, duplicate: () => undefined };

    expect(redisConnection({ redisClient: client, redisCluster: false })).toEqual({ client });
  });

  it('is undefined without Redis', () => {
    expect(redisConnection({ redisCluster: false })).toBeUndefined();
  });
});
