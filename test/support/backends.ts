import { PostgresServer, RedisServer } from 'dev-services';

/**
 * Which bus the multi-instance suites carry signals on: Redis by default, PostgreSQL alone
 * (`LISTEN`/`NOTIFY`, no Redis started) when `E2E_SIGNALS=postgres` (the `e2e-postgres-signals`
 * jest project). The same suites then prove the same behaviour on both.
 */
export const onPostgresSignals = () => process.env.E2E_SIGNALS === 'postgres';

/**
 * A real PostgreSQL and Redis on loopback for one suite, as a multi-instance deployment
 * shares them (PostgreSQL alone with `E2E_SIGNALS=postgres`). `environment()` gives a fresh
 * database per call, so tests do not see each other's threads.
 */
export class SharedBackends {
  postgres!: PostgresServer;
  /** Unset on PostgreSQL alone. */
  redis!: RedisServer;
  private databases = 0;

  async start(): Promise<void> {
    if (onPostgresSignals()) this.postgres = await PostgresServer.start();
    else
      [this.postgres, this.redis] = await Promise.all([
        PostgresServer.start(),
        RedisServer.start(),
      ]);
  }

  /** Service environment on a new database and the shared Redis (or `SIGNALS=postgres` without Redis). */
  async environment(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const url = await this.postgres.createDatabase(`service_${++this.databases}`);
    const signals: Record<string, string> = onPostgresSignals()
      ? { SIGNALS: 'postgres' }
      : { REDIS_URL: this.redis.url };
    // Client resume unless a suite asks for `auto`: the suites written for it retry themselves.
    return { DATABASE_URL: url, ...signals, LEASE_TTL_MS: '1500', RESUME_MODE: 'client', ...extra };
  }

  async stop(): Promise<void> {
    await Promise.all([this.postgres?.destroy(), this.redis?.destroy()]);
  }
}
