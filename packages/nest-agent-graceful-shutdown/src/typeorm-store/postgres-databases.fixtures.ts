/// <reference types="jest" />
import { DataSource } from 'typeorm';
import { PostgresServer } from 'dev-services';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from './session-schema.js';

/** What a PostgreSQL spec file gets: its server, and fresh migrated databases on it. */
export interface PostgresDatabases {
  /** The suite's server (started before the first test, destroyed after the last). */
  readonly server: PostgresServer;
  /** A new database named `<prefix>_<n>`, migrated, with an initialized data source; `poolSize` limits its pool. */
  open(options?: { poolSize?: number }): Promise<DataSource>;
}

/**
 * Starts a real PostgreSQL 15 on loopback for the spec file that calls it (in its top level):
 * each test opens databases of its own, so tests never see each other's rows.
 */
export function usePostgresDatabases(prefix: string): PostgresDatabases {
  let server: PostgresServer | undefined;
  let databases = 0;
  beforeAll(async () => {
    server = await PostgresServer.start();
  }, 120_000);
  afterAll(async () => {
    await server?.destroy();
  });
  const started = (): PostgresServer => {
    if (!server)
      throw new Error(
        'the PostgreSQL server is not started: use the databases inside a test or a hook',
      );
    return server;
  };
  return {
    get server() {
      return started();
    },
    async open(options = {}) {
      const url = await started().createDatabase(`${prefix}_${++databases}`);
      const dataSource = new DataSource({
        type: 'postgres',
        url,
        entities: SESSION_ENTITIES,
        migrations: SESSION_MIGRATIONS,
        migrationsRun: true,
        ...options,
      });
      return dataSource.initialize();
    },
  };
}
