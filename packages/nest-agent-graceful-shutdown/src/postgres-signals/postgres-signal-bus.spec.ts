import { DataSource } from 'typeorm';
import { PostgresSignalBus } from './postgres-signal-bus.js';

describe('PostgresSignalBus on a data source that is not PostgreSQL', () => {
  it('refuses to connect, saying SQLite keeps the in-process bus', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const bus = new PostgresSignalBus(sqlite);

    await expect(bus.connect()).rejects.toThrow(
      /signals\.postgres needs a PostgreSQL data source, got better-sqlite3/,
    );
    await bus.close();
  });

  it('refuses a channel prefix that is not a plain lower-case name', () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });

    expect(() => new PostgresSignalBus(sqlite, { channelPrefix: 'Agent-' })).toThrow(RangeError);
    expect(() => new PostgresSignalBus(sqlite, { channelPrefix: 'x'.repeat(51) })).toThrow(
      /at most 50 characters/,
    );
  });
});
