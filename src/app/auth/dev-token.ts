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
 * secret made for this boot. It exists only when `AUTH_JWT_SECRET` is unset, which the
 * configuration allows outside production only; with a configured secret it is undefined.
 */
@Injectable()
export class DevToken {
  readonly value: string | undefined;

  constructor(jwt: JwtService, config: ConfigService) {
    const { authSecretGenerated, authMaxTokenAgeS } = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
    const lifeS = Math.min(DEV_TOKEN_LIFE_S, authMaxTokenAgeS);
    this.value = authSecretGenerated ? jwt.sign({ sub: DEV_USER }, { algorithm: 'HS256', expiresIn: lifeS }) : undefined;
  }
}
