import { DataSource, type DataSourceOptions } from 'typeorm';
import { runSessionMigrations } from 'nest-agent-graceful-shutdown/store';

/** Connects and brings the schema up to date before the service uses it. */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  await runSessionMigrations(dataSource);
  return dataSource;
}
