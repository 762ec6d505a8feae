import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { tempDataDir } from './support/service-process';

const MAIN = resolve(__dirname, '../dist/main.js');

/** Starts the built service with `env` and resolves with its exit code and everything it printed. */
function startExpectingExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
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
    ['SIGNALS', { SIGNALS: 'kafka' }],
  ])('refuses to start with a bad %s, naming the variable', async (name, env) => {
    const { code, output } = await startExpectingExit(env);

    expect(code).not.toBe(0);
    expect(output).toContain(name);
  });

  it('refuses SIGNALS=postgres on the embedded SQLite store, which has no LISTEN/NOTIFY', async () => {
    const { code, output } = await startExpectingExit({ SIGNALS: 'postgres' });

    expect(code).not.toBe(0);
    expect(output).toContain('SIGNALS=postgres needs a PostgreSQL DATABASE_URL');
  });
});
