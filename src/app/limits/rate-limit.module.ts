import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerModule, minutes } from '@nestjs/throttler';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { RateLimitStorage } from './rate-limit-storage';

/** Provides the rate limit's storage to the throttler's options. */
@Module({ providers: [RateLimitStorage], exports: [RateLimitStorage] })
class RateLimitStorageModule {}

/**
 * The per-user request rate limit's settings (`RATE_LIMIT_PER_MINUTE` requests per user in a
 * one-minute window; 0: off) and counters (see `RateLimitStorage`). The guard that applies it,
 * `UserThrottlerGuard`, is registered beside the auth guard, after it (see `AuthModule`).
 */
export const RateLimitModule = ThrottlerModule.forRootAsync({
  imports: [RateLimitStorageModule],
  inject: [ConfigService, RateLimitStorage],
  useFactory: (config: ConfigService, storage: RateLimitStorage) => {
    const perMinute = config.getOrThrow<AppConfig>(APP_CONFIG_KEY).limits.ratePerMinute;
    return {
      throttlers: [{ ttl: minutes(1), limit: perMinute }],
      skipIf: () => perMinute === 0,
      storage,
    };
  },
});
