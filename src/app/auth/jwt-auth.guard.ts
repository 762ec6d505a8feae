import {
  BadRequestException,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { IncomingMessage } from 'node:http';
import { decodeProtectedHeader, type ProtectedHeaderParameters } from 'jose';
import { isValidUserId, USER_ID_RULE } from 'nest-agent-graceful-shutdown';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { bearerToken } from './bearer-token';
import { JwksVerifier } from './jwks-verifier';
import { IS_PUBLIC } from './public.decorator';
import { CLOCK_TOLERANCE_S, lifetimeProblem } from './token-claims';

const INVALID = 'the bearer token is invalid or expired';

/**
 * Requires `Authorization: Bearer <JWT>` (the scheme in any case, nothing after the token); the
 * user is the token's `sub`, kept as sent: a string of the library's user id rule
 * (`isValidUserId`: no blank at either end, so `" alice"` is refused rather than a second
 * alice, and nothing a store would change). HS256 tokens are checked with
 * `AUTH_JWT_SECRET` and must carry `exp`, at most `AUTH_MAX_TOKEN_AGE_S` after `iat`; RS256 and
 * ES256 tokens against `AUTH_JWKS_URL` (`JwksVerifier`). The token's header picks the check, and
 * each check allows only its own algorithms: `alg: none` or an HS256 token made with a public
 * key never passes. A token with a `crit` header is refused: no extension is understood here.
 * Two `Authorization` headers are 400 `DUPLICATE_AUTHORIZATION`, whichever is valid.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  private readonly maxTokenAgeS: number;

  constructor(
    private readonly jwt: JwtService,
    private readonly jwks: JwksVerifier,
    private readonly reflector: Reflector,
    config: ConfigService,
  ) {
    this.maxTokenAgeS = config.getOrThrow<AppConfig>(APP_CONFIG_KEY).authMaxTokenAgeS;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
        context.getHandler(),
        context.getClass(),
      ])
    )
      return true;
    const request = context.switchToHttp().getRequest<IncomingMessage & { userId?: string }>();
    // Node keeps the first of two Authorization headers; a proxy may have meant the other one.
    if ((request.headersDistinct.authorization?.length ?? 0) > 1) {
      throw new BadRequestException({
        statusCode: 400,
        code: 'DUPLICATE_AUTHORIZATION',
        message: 'authorization: sent more than once',
      });
    }
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new UnauthorizedException('send Authorization: Bearer <token>');
    const payload = await this.claims(token);
    if (typeof payload.sub !== 'string' || payload.sub.length === 0) {
      throw new UnauthorizedException('the bearer token has no subject (sub)');
    }
    if (!isValidUserId(payload.sub))
      throw new UnauthorizedException(`the bearer token's subject (sub) ${USER_ID_RULE}`);
    request.userId = payload.sub;
    return true;
  }

  private async claims(token: string): Promise<{ sub?: unknown }> {
    let header: ProtectedHeaderParameters;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new UnauthorizedException(INVALID);
    }
    if (header.crit !== undefined) throw new UnauthorizedException(INVALID);
    if (header.alg !== 'HS256') return this.jwks.verify(token);
    let payload: { sub?: unknown; exp?: unknown; iat?: unknown };
    try {
      payload = await this.jwt.verifyAsync(token, {
        algorithms: ['HS256'],
        clockTolerance: CLOCK_TOLERANCE_S,
      });
    } catch {
      throw new UnauthorizedException(INVALID);
    }
    if (lifetimeProblem(payload, this.maxTokenAgeS, Date.now() / 1000))
      throw new UnauthorizedException(INVALID);
    return payload;
  }
}
