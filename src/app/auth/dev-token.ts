import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';

/** The user of the dev token. */
export const DEV_USER = 'dev-user';

/**
 * The dev token: a bearer token for `dev-user`, valid 12 hours, signed once at boot with the
 * secret made for this boot. It exists only when `AUTH_JWT_SECRET` is unset, which the
 * configuration allows outside production only; with a configured secret it is undefined.
 */
@Injectable()
export class DevToken {
  readonly value: string | undefined;

  constructor(jwt: JwtService, config: ConfigService) {
    const generated = config.getOrThrow<AppConfig>(APP_CONFIG_KEY).authSecretGenerated;
    this.value = generated ? jwt.sign({ sub: DEV_USER }, { expiresIn: '12h' }) : undefined;
  }
}
