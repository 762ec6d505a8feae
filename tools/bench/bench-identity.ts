import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';

/** The secret a benchmarked service checks bearer tokens with, and one user's token. */
export interface BenchIdentity {
  /**
   * The service's environment for it: production mode (no dev token logged), the secret, and the
   * per-user limits off: one user drives every run of a benchmark (up to thousands at once).
   */
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
  const limitsOff = { MAX_RUNS_PER_USER: '0', RATE_LIMIT_PER_MINUTE: '0' };
  return {
    env: { NODE_ENV: 'production', AUTH_JWT_SECRET: secret, ...limitsOff },
    token: new JwtService({ secret }).sign({ sub: user }, { algorithm: 'HS256', expiresIn: '12h' }),
  };
}
