import { DataSource, type DataSourceOptions, type EntityManager } from 'typeorm';

/** PostgreSQL's data source options, by the same name in TypeORM 0.3 and 1 (their files differ). */
type PostgresConnectionOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

/**
 * Server-side limits of the renewal connection, in milliseconds: a renewal never waits long
 * for a row lock (it skips locked rows anyway) and never hangs on a stalled server.
 */
const RENEWAL_LIMITS = { lock_timeout: 2_000, statement_timeout: 5_000 };

/**
 * A PostgreSQL pool of one connection that only renews leases. Checkpoints queue for the main
 * pool's connections under load; a renewal queued among them would let healthy runs' leases
 * expire. Opened on first use from the main data source's own options (URL, TLS, credentials),
 * named `agent-lease-renewer` in `pg_stat_activity`; the pool replaces a connection the
 * server dropped. Closed by `close()`, after which it refuses work.
 */
export class LeaseRenewalConnection {
  private opened?: Promise<DataSource>;
  private closed = false;

  constructor(private readonly main: DataSource) {}

  /** Runs `work` on the renewal connection (each statement commits on its own). */
  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.closed)
      throw new Error('the lease renewal connection is closed: the session store was shut down');
    this.opened ??= this.open().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return work((await this.opened).manager);
  }

  async close(): Promise<void> {
    this.closed = true;
    const source = await this.opened?.catch(() => undefined);
    this.opened = undefined;
    if (source?.isInitialized) await source.destroy();
  }

  private open(): Promise<DataSource> {
    const options = this.main.options as PostgresConnectionOptions;
    return new DataSource({
      ...options,
      // Raw statements only: none of the host's entities, subscribers, migrations or cache.
      entities: [],
      subscribers: [],
      migrations: [],
      migrationsRun: false,
      synchronize: false,
      dropSchema: false,
      cache: false,
      poolSize: 1,
      applicationName: 'agent-lease-renewer',
      extra: { ...options.extra, max: 1, ...RENEWAL_LIMITS },
    }).initialize();
  }
}
