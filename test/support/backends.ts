import { PostgresServer, RedisServer } from 'dev-services';

/**
 * A real PostgreSQL and Redis on loopback for one suite, as a multi-instance deployment
 * shares them. `environment()` gives a fresh database per call, so tests do not see each
 * other's threads.
 */
export class SharedBackends {
  postgres!: PostgresServer;
  redis!: RedisServer;
  private databases = 0;

  async start(): Promise<void> {
    [this.postgres, this.redis] = await Promise.all([PostgresServer.start(), RedisServer.start()]);
  }

  /** Service environment on a new database and the shared Redis. */
  async environment(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const url = await this.postgres.createDatabase(`service_${++this.databases}`);
    // Client resume unless a suite asks for `auto`: the suites written for it retry themselves.
    return { DATABASE_URL: url, REDIS_URL: this.redis.url, LEASE_TTL_MS: '1500', RESUME_MODE: 'client', ...extra };
  }

  async stop(): Promise<void> {
    await Promise.all([this.postgres?.destroy(), this.redis?.destroy()]);
  }
}
