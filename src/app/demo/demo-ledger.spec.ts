import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from 'nest-agent-graceful-shutdown/store';
import type { DataSource } from 'typeorm';
import { openDataSource } from '../database/open-data-source';
import { SERVICE_MIGRATIONS } from '../database/service-migrations';
import { DemoLedger, type DemoEffect } from './demo-ledger';
import { StaleFencingTokenError } from './stale-fencing-token.error';

const effect = (
  idempotencyKey: string,
  fencingToken: number,
  result = 'step 1 done',
): DemoEffect => ({
  idempotencyKey,
  fencingToken,
  threadId: 'thread-1',
  toolCallId: `call-for-${idempotencyKey}`,
  step: 1,
  result,
});

describe('DemoLedger (SQLite, migrated as the service migrates)', () => {
  let dir: string;
  let dataSource: DataSource;
  let ledger: DemoLedger;
  const rows = async () =>
    (await dataSource.query(
      'SELECT idempotency_key, fencing_token, result FROM demo_tool_effects ORDER BY idempotency_key',
    )) as unknown[];
  const fence = async () =>
    (
      (await dataSource.query(
        `SELECT fencing_token FROM demo_tool_fences WHERE thread_id = 'thread-1'`,
      )) as Array<{ fencing_token: number }>
    )[0];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'demo-ledger-'));
    dataSource = await openDataSource({
      type: 'better-sqlite3',
      database: join(dir, 'agents.sqlite'),
      entities: SESSION_ENTITIES,
      migrations: [...SESSION_MIGRATIONS, ...SERVICE_MIGRATIONS],
    });
    ledger = new DemoLedger(dataSource);
  });
  afterEach(async () => {
    await dataSource.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('records an effect once per idempotency key, returning the recorded result to a second call', async () => {
    await expect(ledger.record(effect('k-1', 1))).resolves.toEqual({
      result: 'step 1 done',
      duplicate: false,
    });
    await expect(ledger.record(effect('k-1', 2, 'another result'))).resolves.toEqual({
      result: 'step 1 done',
      duplicate: true,
    });
    expect(await rows()).toEqual([
      { idempotency_key: 'k-1', fencing_token: 1, result: 'step 1 done' },
    ]);
  });

  it("refuses a call whose token is lower than the thread's last seen one, writing nothing", async () => {
    await ledger.record(effect('k-2', 3));

    const refused = ledger.record(effect('k-1', 2));

    await expect(refused).rejects.toBeInstanceOf(StaleFencingTokenError);
    await expect(refused).rejects.toMatchObject({
      code: 'STALE_FENCING_TOKEN',
      staleToken: 2,
      currentToken: 3,
    });
    expect(await rows()).toEqual([
      { idempotency_key: 'k-2', fencing_token: 3, result: 'step 1 done' },
    ]);
    expect(await fence()).toEqual({ fencing_token: 3 });
  });

  it('accepts the current token again and raises the fence to a higher one', async () => {
    await ledger.record(effect('k-1', 3));
    await ledger.record(effect('k-2', 3));
    await ledger.record(effect('k-3', 5));
    expect(await fence()).toEqual({ fencing_token: 5 });
    expect(await rows()).toHaveLength(3);
  });

  it('records concurrent effects of one thread each once, one transaction after another', async () => {
    const outcomes = await Promise.all(
      [effect('k-1', 1), effect('k-1', 1), effect('k-2', 1)].map((e) => ledger.record(e)),
    );
    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(2);
    expect(await rows()).toHaveLength(2);
  });
});
