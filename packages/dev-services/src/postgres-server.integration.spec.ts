import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { ensureLocalServicePackages } from './debian-packages';
import { PostgresServer } from './postgres-server';

/** Runs one statement on a fresh connection and returns its rows. */
async function query(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The first run installs the packages with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;

/** A server of the calling describe block's own: started before its tests, destroyed after them. */
function serverPerBlock(): { server: PostgresServer } {
  const block = {} as { server: PostgresServer };
  beforeAll(async () => {
    await ensureLocalServicePackages();
    block.server = await PostgresServer.start();
  }, INSTALL_TIMEOUT_MS);
  afterAll(async () => {
    await block.server?.destroy();
  });
  return block;
}

describe('PostgresServer while running', () => {
  const block = serverPerBlock();

  it('answers a query from a pg client', async () => {
    const rows = await query(block.server.url(), 'SELECT 1 + 1 AS two');

    expect(rows).toEqual([{ two: 2 }]);
  });

  it('listens on 127.0.0.1 at the port it reports', async () => {
    const rows = await query(
      block.server.url(),
      "SELECT host(inet_server_addr()) AS host, current_setting('port') AS port",
    );

    expect(rows).toEqual([{ host: '127.0.0.1', port: String(block.server.port) }]);
    expect(block.server.url()).toBe(`postgres://postgres@127.0.0.1:${block.server.port}/postgres`);
  });

  it('creates a database that a client can use', async () => {
    const url = await block.server.createDatabase('app "db"');

    await query(url, 'CREATE TABLE notes (body text)');
    await query(url, 'INSERT INTO notes VALUES ($1)', ['hello']);
    const rows = await query(url, 'SELECT current_database() AS db, body FROM notes');

    expect(rows).toEqual([{ db: 'app "db"', body: 'hello' }]);
  });

  it('keeps committed data across restart()', async () => {
    const url = await block.server.createDatabase('survives_restart');
    await query(url, 'CREATE TABLE kept (n int)');
    await query(url, 'INSERT INTO kept VALUES (42)');

    await block.server.restart();

    expect(await query(url, 'SELECT n FROM kept')).toEqual([{ n: 42 }]);
  });

  it('keeps committed data across an immediate (crash-like) restart', async () => {
    const url = await block.server.createDatabase('survives_crash');
    await query(url, 'CREATE TABLE kept (n int)');
    await query(url, 'INSERT INTO kept VALUES (7)');

    await block.server.restart('immediate');

    expect(await query(url, 'SELECT n FROM kept')).toEqual([{ n: 7 }]);
  });
});

describe('PostgresServer once stopped', () => {
  const block = serverPerBlock();

  it('refuses connections', async () => {
    await block.server.stop();

    await expect(query(block.server.url(), 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('serves again on the same port after startAgain()', async () => {
    await block.server.stop();

    await block.server.startAgain();

    expect(await query(block.server.url(), "SELECT current_setting('port') AS port")).toEqual([
      { port: String(block.server.port) },
    ]);
  });

  it('deletes its temp dir on destroy()', async () => {
    await block.server.destroy();

    expect(existsSync(block.server.dir)).toBe(false);
  });
});
