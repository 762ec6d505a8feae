import { JwtService } from '@nestjs/jwt';
import { TEST_SECRET, tokenFor } from './http';
import { signingKey, signJwt, tokenWith } from './jwks-server';

/**
 * Bearer tokens an attacker would try on a service started with `TEST_SECRET` and
 * `AUTH_MAX_TOKEN_AGE_S=MAX_TOKEN_AGE_S` (and no JWKS), each for the user `USER`; `valid` is
 * the one that passes.
 */
export const USER = 'mallory';
export const MAX_TOKEN_AGE_S = 3600;
const now = () => Math.floor(Date.now() / 1000);
const hs = new JwtService({ secret: TEST_SECRET });
const rsa = signingKey('RS256');

export const tokens = {
  valid: tokenFor(USER),
  withoutExp: hs.sign({ sub: USER }, { algorithm: 'HS256' }),
  tooLongLived: hs.sign({ sub: USER }, { algorithm: 'HS256', expiresIn: MAX_TOKEN_AGE_S * 2 }),
  issuedInFuture: hs.sign({ sub: USER, iat: now() + 120 }, { algorithm: 'HS256', expiresIn: 600 }),
  crit: signJwt(
    { alg: 'HS256', typ: 'JWT', crit: ['exp'] },
    { sub: USER, iat: now(), exp: now() + 600 },
    { secret: TEST_SECRET },
  ),
  algNone: signJwt({ alg: 'none', typ: 'JWT' }, { sub: USER, iat: now(), exp: now() + 600 }),
  algorithmConfusion: signJwt(
    { alg: 'HS256', typ: 'JWT', kid: rsa.kid },
    { sub: USER, iat: now(), exp: now() + 600 },
    { secret: rsa.publicKey.export({ type: 'spki', format: 'pem' }) },
  ),
  expired: hs.sign({ sub: USER, exp: now() - 60 }),
  otherSecret: tokenFor(USER, 'another-secret'),
  rs256WithoutJwks: tokenWith(rsa, { sub: USER, iat: now(), exp: now() + 600 }),
};
/** Strings that must never reach the log. */
export const SECRETS = [TEST_SECRET, ...Object.values(tokens)];
