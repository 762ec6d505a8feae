import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import type { Cluster, Redis } from 'ioredis';
import { openRateLimitRedis } from './rate-limit-redis';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';

/** What one count answers: hits so far, whether the user is blocked, and for how long, in seconds. */
type CountRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Where the per-user request counters live: in Redis with `REDIS_URL` (a cluster with `REDIS_CLUSTER`), so the limit holds
 * across instances, else in this process. It fails open: while Redis cannot answer (down,
 * restarting, slower than 200 ms), requests are counted in this process instead, so an outage
 * never turns the limit into an error, and the limit holds per instance until Redis is back.
 * Owns its Redis connection (no offline queue: a count never waits for a reconnect).
 */
@Injectable()
export class RateLimitStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new ThrottlerStorageService();
  private readonly redis?: Redis | Cluster;
  private readonly shared?: ThrottlerStorageRedisService;
  private fallingBack = false;

  constructor(config: ConfigService) {
    const { redisUrl, redisCluster } = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
    if (!redisUrl) return;
    this.redis = openRateLimitRedis(redisUrl, redisCluster);
    // Connection errors surface as failed counts (logged once per outage below), not as crashes.
    this.redis.on('error', () => undefined);
    // Its constructor takes either client, one overload each.
    this.shared = this.redis.isCluster
      ? new ThrottlerStorageRedisService(this.redis as Cluster)
      : new ThrottlerStorageRedisService(this.redis as Redis);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<CountRecord> {
    if (!this.shared) return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    try {
      const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
      if (this.fallingBack) this.logger.log({ msg: 'rate limit counted in redis again' });
      this.fallingBack = false;
      return record;
    } catch (error) {
      if (!this.fallingBack)
        this.logger.warn({
          msg: 'rate limit counted in this instance while redis is unreachable',
          error: String(error),
        });
      this.fallingBack = true;
      return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  onApplicationShutdown(): void {
    this.local.onApplicationShutdown();
    this.redis?.disconnect();
  }
}
