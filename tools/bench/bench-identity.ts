import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';

/** The secret a benchmarked service checks bearer tokens with, and one user's token. */
export interface BenchIdentity {
  /** The service's environment for it: production mode (no dev token logged) and the secret. */
  env: Record<string, string>;
  token: string;
}

/**
 * A fresh HS256 secret and a token for `user`; pass `env` to every instance that must accept the token.
 *
 * @example
 * const { env, token } = benchIdentity();
 * const service = await SpawnedService.start({ ...env, DEMO_STEPS: '3' });
 */
export function benchIdentity(user = 'bench-user'): BenchIdentity {
  const secret = randomBytes(32).toString('hex');
  return { env: { NODE_ENV: 'production', AUTH_JWT_SECRET: secret }, token: new JwtService({ secret }).sign({ sub: user }) };
}
