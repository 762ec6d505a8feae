import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import { MINUTE_MS, skewedClock } from './support/skewed-clock';
import { FINISHED_RUN, joinRun, runShape, startRun } from './support/sse';
import { waitFor } from 'dev-services';

/** Issued two minutes ago, so that an instance whose clock runs a minute behind does not see it issued in its future. */
const user = tokenFor('carol', undefined, { issuedSecondsAgo: 120 });

describe('a process killed without warning', () => {
  const services = new ServiceGroup();
  afterEach(() => services.stopAll());

  it('keeps every checkpointed step, and the next process resumes the thread as interrupted by a crash', async () => {
    const env = { DEMO_STEPS: '4', DEMO_TOOL_MS: '300' };
    const first = await services.start({ env });
    const input = runInput('thread-crash', 'run-1', [{ id: 'u1', content: 'four steps' }]);
    const stream = await startRun(first.baseUrl, user, input);
    await stream.waitForEvent(
      (e) => e.type === 'TOOL_CALL_RESULT' && e.content === 'step 2 done',
      'step 2 result',
    );

    first.kill('SIGKILL');
    await first.waitForExit();

    // The next process's wall clock runs a minute behind: the lease is judged on the database's.
    const second = await services.start({
      env: { ...first.env, ...skewedClock(-MINUTE_MS) },
      dataDir: first.dataDir,
    });
    // On an embedded store the new process takes over at boot; on a shared one, once the lease expires.
    const status = await waitFor(async () => {
      const { body } = await api(second.baseUrl, '/v1/threads/thread-crash', { token: user });
      return body.status !== 'running' ? body : undefined;
    }, 'the thread to stop reading running');
    expect(status).toMatchObject({
      status: 'interrupted',
      activeRunId: null,
      interrupt: { reason: 'crash', runId: 'run-1' },
    });
    const before = await api(second.baseUrl, '/v1/threads/thread-crash/messages', { token: user });
    const kept = (before.body.messages as Array<{ role: string; content: string }>).filter(
      (m) => m.role === 'tool',
    );
    expect(kept.map((m) => m.content).slice(0, 2)).toEqual(['step 1 done', 'step 2 done']);

    const retry = await startRun(second.baseUrl, user, input);
    expect(await retry.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    // The retry's own stream starts with its RUN_STARTED, before it closes what the crashed attempt left open.
    expect(runShape(retry.frames)).toEqual(FINISHED_RUN);
    const [resent, joined] = await Promise.all([
      startRun(second.baseUrl, user, input),
      joinRun(second.baseUrl, user, 'thread-crash'),
    ]);
    await Promise.all([resent.done, joined.done]);
    expect(runShape(resent.frames)).toEqual(FINISHED_RUN);
    expect(joined.frames).toEqual(resent.frames);
    const { body } = await api(second.baseUrl, '/v1/threads/thread-crash/messages', {
      token: user,
    });
    const messages = body.messages as Array<{ role: string; content: string }>;
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(messages.filter((m) => m.role === 'system')[0].content).toContain(
      'stopped unexpectedly',
    );
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'step 1 done',
      'step 2 done',
      'step 3 done',
      'step 4 done',
    ]);
  });
});
