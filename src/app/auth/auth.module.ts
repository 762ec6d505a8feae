import { createSecretKey } from 'node:crypto';
import { Global, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';
import { JwtModule } from '@nestjs/jwt';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { RateLimitModule } from '../limits/rate-limit.module';
import { UserThrottlerGuard } from '../limits/user-throttler.guard';
import { DEV_USER, DevToken } from './dev-token';
import { JwksVerifier } from './jwks-verifier';
import { JwtAuthGuard } from './jwt-auth.guard';

/**
 * Bearer-token authentication for every route not marked `@Public()`, then the per-user rate
 * limit. Both guards are registered here, in this order, because Nest runs global guards in the
 * order they are registered within one module (across modules it follows module scanning): the
 * rate limit needs the user the auth guard found.
 */
@Global()
@Module({
  imports: [
    JwtModule.registerAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        // A key object: given a string, jsonwebtoken first tries to read it as a public key on
        // every verification (about half a millisecond of CPU per request).
        secret: createSecretKey(
          Buffer.from(config.getOrThrow<AppConfig>(APP_CONFIG_KEY).authJwtSecret),
        ),
        signOptions: { algorithm: 'HS256' },
      }),
    }),
    RateLimitModule,
  ],
  providers: [
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    { provide: APP_GUARD, useClass: UserThrottlerGuard },
    JwksVerifier,
    DevToken,
  ],
  exports: [DevToken],
})
export class AuthModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly devToken: DevToken,
    private readonly config: ConfigService,
  ) {}

  /** Asked for with `AUTH_DEV_TOKEN=true` (never in production), log a token to paste into curl. */
  onApplicationBootstrap(): void {
    const generated = this.config.getOrThrow<AppConfig>(APP_CONFIG_KEY).authSecretGenerated;
    if (!this.devToken.value) {
      if (generated) {
        this.logger.warn({
          msg: 'AUTH_JWT_SECRET is unset: a secret was made for this boot, and no token can be made for it. Set AUTH_DEV_TOKEN=true for a dev token (any proxy on this host exposes it), or set AUTH_JWT_SECRET',
        });
      }
      return;
    }
    this.logger.warn({
      msg: `AUTH_DEV_TOKEN=true: dev token for user "${DEV_USER}", served at /console/dev-token to direct local requests (any proxy on this host exposes it)${generated ? '; AUTH_JWT_SECRET is unset: a secret was made for this boot' : ''}`,
      token: this.devToken.value,
    });
  }
}
