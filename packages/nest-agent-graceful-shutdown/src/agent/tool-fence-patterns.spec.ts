import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from 'dev-services';
import { DataSource } from 'typeorm';
import type { ToolCallContext } from './agent-tool.interface.js';
import { toolFenceOf } from './tool-fence.js';
import { paymentTool, stockTool } from './tool-fence-patterns.fixtures.js';

const context = (toolCallId: string, fencingToken: number): ToolCallContext => ({
  threadId: 'thread-1',
  runId: 'run-1',
  toolCallId,
  signal: new AbortController().signal,
  ...toolFenceOf('thread-1', toolCallId, fencingToken),
});

/** A payment service that makes one payment per `Idempotency-Key` and answers a repeat with the first answer. */
function dedupingServer(): { server: Server; payments: string[] } {
  const answers = new Map<string, string>();
  const payments: string[] = [];
  const server = createServer((request, response) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return void response.writeHead(400).end();
    let answer = answers.get(key);
    if (answer === undefined) {
      payments.push(key);
      answers.set(key, (answer = `payment ${payments.length}`));
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
  });
  return { server, payments };
}

describe('the HTTP tool pattern (Idempotency-Key)', () => {
  let server: Server;
  let payments: string[];
  let url: string;

  beforeAll(async () => {
    ({ server, payments } = dedupingServer());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pay`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('makes one payment for a call executed twice, by a later attempt too, and another for another call', async () => {
    const tool = paymentTool(url);
    const first = await tool.execute({ invoice: 'inv-1' }, context('call-1', 1));
    const again = await tool.execute({ invoice: 'inv-1' }, context('call-1', 2));
    const other = await tool.execute({ invoice: 'inv-2' }, context('call-2', 2));

    expect([first, again, other]).toEqual(['payment 1', 'payment 1', 'payment 2']);
    expect(payments).toEqual([
      toolFenceOf('thread-1', 'call-1', 0).idempotencyKey,
      toolFenceOf('thread-1', 'call-2', 0).idempotencyKey,
    ]);
  });
});

describe('the database tool pattern (conditional write on the fencing token)', () => {
  let dir: string;
  let dataSource: DataSource;
  const reserved = async () =>
    (
      (await dataSource.query(`SELECT reserved, fence FROM stock WHERE sku = 'sku-1'`)) as unknown[]
    )[0];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fence-pattern-'));
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 'shop.sqlite'),
    }).initialize();
    await dataSource.query(
      'CREATE TABLE stock (sku varchar PRIMARY KEY, reserved integer NOT NULL, fence integer NOT NULL DEFAULT 0)',
    );
    await dataSource.query(`INSERT INTO stock (sku, reserved) VALUES ('sku-1', 0)`);
  });
  afterEach(async () => {
    await dataSource.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes with the current token and raises the fence to it', async () => {
    await expect(
      stockTool(dataSource).execute({ sku: 'sku-1', quantity: 2 }, context('call-1', 3)),
    ).resolves.toBe('reserved 2 of sku-1');
    expect(await reserved()).toEqual({ reserved: 2, fence: 3 });
  });

  it('refuses a write with a token lower than the last one seen, writing nothing', async () => {
    const tool = stockTool(dataSource);
    await tool.execute({ sku: 'sku-1', quantity: 2 }, context('call-2', 5));

    await expect(tool.execute({ sku: 'sku-1', quantity: 1 }, context('call-1', 4))).rejects.toThrow(
      'stale fencing token 4',
    );
    expect(await reserved()).toEqual({ reserved: 2, fence: 5 });
  });
});

describe('the fencing page of the docs', () => {
  // From the repository, not from this file: the Node-version runs execute a transpiled copy.
  const packageRoot = join(REPO_ROOT, 'packages', 'nest-agent-graceful-shutdown');
  const readme = readFileSync(join(REPO_ROOT, 'docs', 'library', 'fencing.md'), 'utf8');
  const fixtures = readFileSync(
    join(packageRoot, 'src', 'agent', 'tool-fence-patterns.fixtures.ts'),
    'utf8',
  );
  const region = (name: string) =>
    fixtures.split(`// #region ${name}\n`)[1]?.split(`// #endregion ${name}`)[0]?.trim();

  it.each(['http', 'database'])('shows the %s tool pattern exactly as it is tested', (name) => {
    const code = region(name);
    expect(code).toBeTruthy();
    expect(readme).toContain(code);
  });
});
