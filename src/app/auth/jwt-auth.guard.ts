import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { decodeProtectedHeader } from 'jose';
import { JwksVerifier } from './jwks-verifier';
import { IS_PUBLIC } from './public.decorator';

const INVALID = 'the bearer token is invalid or expired';

/**
 * Requires `Authorization: Bearer <JWT>`; the user is the token's `sub`, a non-empty string.
 * HS256 tokens are checked with `AUTH_JWT_SECRET`; RS256 and ES256 tokens against
 * `AUTH_JWKS_URL` (`JwksVerifier`). The token's header picks the check, and each check allows
 * only its own algorithms: `alg: none` or an HS256 token made with a public key never passes.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly jwt: JwtService,
    private readonly jwks: JwksVerifier,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; userId?: string }>();
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    if (scheme !== 'Bearer' || !token) throw new UnauthorizedException('send Authorization: Bearer <token>');
    const payload = await this.claims(token);
    if (typeof payload.sub !== 'string' || payload.sub.length === 0) {
      throw new UnauthorizedException('the bearer token has no subject (sub)');
    }
    request.userId = payload.sub;
    return true;
  }

  private async claims(token: string): Promise<{ sub?: unknown }> {
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new UnauthorizedException(INVALID);
    }
    if (alg !== 'HS256') return this.jwks.verify(token);
    try {
      return await this.jwt.verifyAsync<{ sub?: unknown }>(token, { algorithms: ['HS256'] });
    } catch {
      throw new UnauthorizedException(INVALID);
    }
  }
}
