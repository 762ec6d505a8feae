import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import { startRun } from './support/sse';

const user = tokenFor('dana');

/** Writes the format of `threadId`'s records in the service's embedded store, as another release would. */
async function setRecordFormat(
  dataDir: string,
  threadId: string,
  formatVersion: number,
): Promise<void> {
  const db = await new DataSource({
    type: 'better-sqlite3',
    database: join(dataDir, 'agents.sqlite'),
  }).initialize();
  try {
    await db.query('UPDATE agent_threads SET format_version = ? WHERE thread_id = ?', [
      formatVersion,
      threadId,
    ]);
  } finally {
    await db.destroy();
  }
}

describe('a thread whose records a newer release wrote', () => {
  const services = new ServiceGroup();
  afterEach(() => services.stopAll());

  it('is left alone by this release: the retry gets 409 RECORD_FORMAT_NEWER and nothing is written, until the format is one it understands', async () => {
    const env = { DEMO_STEPS: '3', DEMO_TOOL_MS: '300', SHUTDOWN_DRAIN_TIMEOUT_MS: '0' };
    const first = await services.start({ env });
    const input = runInput('thread-format', 'run-1', [{ id: 'u1', content: 'three steps' }]);
    const stream = await startRun(first.baseUrl, user, input);
    await stream.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'the first tool result');
    first.kill('SIGTERM');
    expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    await first.waitForExit();
    await setRecordFormat(first.dataDir, 'thread-format', 2);

    const second = await services.start({ env: first.env, dataDir: first.dataDir });
    const before = await api(second.baseUrl, '/v1/threads/thread-format/messages', { token: user });
    const refused = await api(second.baseUrl, '/v1/runs', {
      method: 'POST',
      token: user,
      body: input,
    });

    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ statusCode: 409, code: 'RECORD_FORMAT_NEWER' });
    expect(refused.body.message).toContain('newer release');
    expect(
      (await api(second.baseUrl, '/v1/threads/thread-format/messages', { token: user })).body,
    ).toEqual(before.body);
    expect(
      (await api(second.baseUrl, '/v1/threads/thread-format', { token: user })).body,
    ).toMatchObject({ status: 'interrupted', activeRunId: null });

    // Rolled forward again (here: the format set back to this release's), the retry resumes.
    await second.stop();
    await setRecordFormat(first.dataDir, 'thread-format', 1);
    const third = await services.start({ env: first.env, dataDir: first.dataDir });
    const retry = await startRun(third.baseUrl, user, input);
    expect(await retry.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
  });
});
