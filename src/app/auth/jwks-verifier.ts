import { Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { CLOCK_TOLERANCE_S, issuedInFuture } from './token-claims';

/** After a fetch of the key set, an unknown `kid` waits this long before the next fetch, in milliseconds. */
const JWKS_COOLDOWN_MS = 5_000;

/** Errors of reaching the key set, not of the token: the provider is down, not the caller wrong. */
function keySetUnreachable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout) return true;
  if (error instanceof errors.JOSEError) return error.code === 'ERR_JOSE_GENERIC';
  return error instanceof TypeError;
}

/**
 * Checks RS256 and ES256 bearer tokens against an OIDC provider's JWKS (`AUTH_JWKS_URL`):
 * signature by a published key (a new `kid` makes it fetch the set again, so key rotation is
 * honoured), `AUTH_ISSUER` and `AUTH_AUDIENCE` when set, `exp`, `nbf` and `iat` (not ahead of
 * the clock) with a 5-second tolerance. A `crit` header naming an extension is refused. Any other algorithm (`none`, HS256 made with a public key) is refused.
 */
@Injectable()
export class JwksVerifier {
  private readonly keys?: ReturnType<typeof createRemoteJWKSet>;
  private readonly issuer?: string;
  private readonly audience?: string;

  constructor(config: ConfigService) {
    const { authJwksUrl, authIssuer, authAudience } = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
    if (authJwksUrl)
      this.keys = createRemoteJWKSet(new URL(authJwksUrl), { cooldownDuration: JWKS_COOLDOWN_MS });
    this.issuer = authIssuer;
    this.audience = authAudience;
  }

  /** True when a JWKS is configured. */
  get enabled(): boolean {
    return this.keys !== undefined;
  }

  /** The token's claims; 401 for a token that does not verify, 503 while the key set cannot be fetched. */
  async verify(token: string): Promise<JWTPayload> {
    if (!this.keys) throw new UnauthorizedException('the bearer token is invalid or expired');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        algorithms: ['RS256', 'ES256'],
        issuer: this.issuer,
        audience: this.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        // No extension is understood here: a token that names one in `crit` is refused.
        crit: {},
      }));
    } catch (error) {
      if (keySetUnreachable(error))
        throw new ServiceUnavailableException(
          "the identity provider's keys cannot be fetched now; retry shortly",
        );
      throw new UnauthorizedException('the bearer token is invalid or expired');
    }
    if (issuedInFuture(payload, Date.now() / 1000))
      throw new UnauthorizedException('the bearer token is invalid or expired');
    return payload;
  }
}
