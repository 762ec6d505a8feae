import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { tempDataDir } from './support/service-process';

const MAIN = resolve(__dirname, '../dist/main.js');

/** Starts the built service with `env` and resolves with its exit code and everything it printed. */
function startExpectingExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', PORT: '0', DATA_DIR: tempDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolveExit) => child.once('exit', (code) => resolveExit({ code, output })));
}

describe('the service at startup', () => {
  it('refuses to start with an unknown AGENT_FRAMEWORK, naming the variable', async () => {
    const { code, output } = await startExpectingExit({ AGENT_FRAMEWORK: 'crewai' });

    expect(code).not.toBe(0);
    expect(output).toContain('AGENT_FRAMEWORK');
  });

  it.each([
    ['HTTP_REQUEST_TIMEOUT_MS', { HTTP_REQUEST_TIMEOUT_MS: '0' }],
    ['HTTP_HEADERS_TIMEOUT_MS', { HTTP_HEADERS_TIMEOUT_MS: '2 minutes' }],
    ['HTTP_KEEPALIVE_TIMEOUT_MS', { HTTP_KEEPALIVE_TIMEOUT_MS: '-1' }],
    ['AUTH_MAX_TOKEN_AGE_S', { AUTH_MAX_TOKEN_AGE_S: 'forever' }],
    ['METRICS_PORT', { METRICS_PORT: '70000' }],
    ['POD_DELETION_COST', { POD_DELETION_COST: 'yes' }],
    ['POD_NAME', { POD_DELETION_COST: 'true' }],
    ['SIGNALS', { SIGNALS: 'kafka' }],
  ])('refuses to start with a bad %s, naming the variable', async (name, env) => {
    const { code, output } = await startExpectingExit(env);

    expect(code).not.toBe(0);
    expect(output).toContain(name);
  });

  it('refuses to start with AUTH_DEV_TOKEN=true in production, saying why', async () => {
    const { code, output } = await startExpectingExit({
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'a-secret',
      AUTH_DEV_TOKEN: 'true',
    });

    expect(code).not.toBe(0);
    expect(output).toContain('AUTH_DEV_TOKEN=true is refused when NODE_ENV=production');
  });

  it('refuses to start with POD_DELETION_COST=true outside a pod, naming what it misses', async () => {
    const { code, output } = await startExpectingExit({
      POD_DELETION_COST: 'true',
      POD_NAME: 'agent-service-0',
      POD_NAMESPACE: 'agents',
    });

    expect(code).not.toBe(0);
    expect(output).toContain('KUBERNETES_SERVICE_HOST');
  });

  it('refuses to start with POD_DELETION_COST=true and no namespace to find, naming POD_NAMESPACE', async () => {
    // A Kubernetes API address, but no POD_NAMESPACE and no service account namespace file.
    const { code, output } = await startExpectingExit({
      POD_DELETION_COST: 'true',
      POD_NAME: 'agent-service-0',
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: '6443',
    });

    expect(code).not.toBe(0);
    expect(output).toContain('POD_NAMESPACE');
  });

  it('exits 1 with the reason when it cannot listen, instead of staying up with its store open', async () => {
    const taken = createServer();
    await new Promise<void>((ready) => taken.listen(0, '0.0.0.0', ready));
    try {
      const { port } = taken.address() as AddressInfo;
      const { code, output } = await startExpectingExit({ PORT: String(port) });

      expect(code).toBe(1);
      expect(output).toContain('cannot start');
      expect(output).toContain('EADDRINUSE');
    } finally {
      await new Promise<void>((closed) => taken.close(() => closed()));
    }
  });

  it('refuses SIGNALS=postgres on the embedded SQLite store, which has no LISTEN/NOTIFY', async () => {
    const { code, output } = await startExpectingExit({ SIGNALS: 'postgres' });

    expect(code).not.toBe(0);
    expect(output).toContain('SIGNALS=postgres needs a PostgreSQL DATABASE_URL');
  });
});
