import 'reflect-metadata';
import { loadAppConfig } from '../config/app-config';
import { databaseOptions } from './database-options';
import { openDataSource } from './open-data-source';

/** `npm run migrate`: applies the session migrations to the configured database and exits. */
async function migrate(): Promise<void> {
  const dataSource = await openDataSource(databaseOptions(loadAppConfig(process.env)));
  try {
    const applied = await dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    console.log(
      JSON.stringify({
        msg: 'schema up to date',
        migrations: (applied as Array<{ name: string }>).map((m) => m.name),
      }),
    );
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((error: unknown) => {
  console.error(
    JSON.stringify({
      msg: 'migration failed',
      error: error instanceof Error ? error.message : String(error),
    }),
  );
  process.exitCode = 1;
});
