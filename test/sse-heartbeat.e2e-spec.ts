import { runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import { joinRun, startRun } from './support/sse';
import { waitFor } from 'dev-services';

const user = tokenFor('alice');

describe('SSE heartbeat', () => {
  const services = new ServiceGroup();
  afterEach(() => services.stopAll());

  it('writes a comment line while a model call is silent for longer than SSE_HEARTBEAT_MS, and the stream stays well formed', async () => {
    const service = await services.start({
      env: { SSE_HEARTBEAT_MS: '100', DEMO_REASONING_MS: '700', DEMO_STEPS: '1' },
    });

    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-heartbeat', 'run-1', [{ id: 'u1', content: 'one step' }]),
    );

    expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    expect(stream.comments.length).toBeGreaterThanOrEqual(2);
    expect(stream.comments.every((line) => line === ': heartbeat')).toBe(true);
    expect(stream.ids.map(Number)).toEqual(stream.events.map((_, index) => index + 1));
  });

  it('writes no comment line when SSE_HEARTBEAT_MS is 0', async () => {
    const service = await services.start({
      env: { SSE_HEARTBEAT_MS: '0', DEMO_REASONING_MS: '300', DEMO_STEPS: '1' },
    });

    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-no-heartbeat', 'run-1', [{ id: 'u1', content: 'one step' }]),
    );

    expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    expect(stream.comments).toEqual([]);
  });

  it('writes heartbeats to the run stream and to a joined stream during a 5-second silent model call', async () => {
    const service = await services.start({
      env: { SSE_HEARTBEAT_MS: '1000', DEMO_REASONING_MS: '5000', DEMO_STEPS: '1' },
    });
    const post = await startRun(
      service.baseUrl,
      user,
      runInput('thread-join-heartbeat', 'run-1', [{ id: 'u1', content: 'one slow step' }]),
    );
    await post.waitForEvent((event) => event.type === 'STEP_STARTED', 'the reasoning step');

    const joined = await joinRun(service.baseUrl, user, 'thread-join-heartbeat', {
      lastEventId: 0,
    });
    const eventsBefore = await waitFor(
      () =>
        joined.frames.find((frame) => frame.event.type === 'STEP_STARTED') && joined.frames.length,
      'the replay',
    );
    await waitFor(
      () => joined.comments.length > 0 && post.comments.length > 0,
      'a heartbeat on both streams',
      4_000,
    );

    expect(joined.frames).toHaveLength(eventsBefore);
    expect(joined.comments[0]).toBe(': heartbeat');
    expect((await joined.terminal())?.type).toBe('RUN_FINISHED');
    await post.done;
  });
});
