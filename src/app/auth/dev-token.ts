import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';

/** The user of the dev token. */
export const DEV_USER = 'dev-user';

/** The dev token's life, in seconds, unless `AUTH_MAX_TOKEN_AGE_S` is shorter. */
const DEV_TOKEN_LIFE_S = 12 * 3600;

/**
 * The dev token: a bearer token for `dev-user`, valid 12 hours (or `AUTH_MAX_TOKEN_AGE_S` when
 * shorter: it carries `iat` and `exp` like any HS256 token), signed once at boot with the
 * service's HS256 secret (the one made for this boot when `AUTH_JWT_SECRET` is unset). It
 * exists only when asked for with `AUTH_DEV_TOKEN=true`, which the configuration refuses in
 * production; otherwise it is undefined.
 */
@Injectable()
export class DevToken {
  readonly value: string | undefined;

  constructor(jwt: JwtService, config: ConfigService) {
    const { authDevToken, authMaxTokenAgeS } = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
    const lifeS = Math.min(DEV_TOKEN_LIFE_S, authMaxTokenAgeS);
    this.value = authDevToken
      ? jwt.sign({ sub: DEV_USER }, { algorithm: 'HS256', expiresIn: lifeS })
      : undefined;
  }
}
