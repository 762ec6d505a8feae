import type { DataSource } from 'typeorm';

// Any constant works as long as every instance uses the same one; this spells "agentmig".
const MIGRATION_LOCK_KEY = 0x6167656e746d6967n;

/**
 * Runs the pending migrations of `dataSource` (initialized, with `SESSION_MIGRATIONS` among its
 * migrations). On PostgreSQL it holds a session advisory lock meanwhile, so instances of a
 * rolling deployment that boot together migrate once, one after another, instead of racing.
 * Returns the names of the migrations it ran.
 *
 * @example
 * TypeOrmModule.forRootAsync({ useFactory: () => options, dataSourceFactory: async (o) => {
 *   const source = await new DataSource(o!).initialize(); await runSessionMigrations(source); return source; } })
 */
export async function runSessionMigrations(dataSource: DataSource): Promise<string[]> {
  if (dataSource.options.type !== 'postgres')
    return names(await dataSource.runMigrations({ transaction: 'each' }));
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      return names(await dataSource.runMigrations({ transaction: 'each' }));
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    await runner.release();
  }
}

const names = (migrations: Array<{ name: string }>) =>
  migrations.map((migration) => migration.name);
