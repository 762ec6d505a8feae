import { runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import { startRun } from './support/sse';

const user = tokenFor('alice');

describe('SSE heartbeat', () => {
  const services = new ServiceGroup();
  afterEach(() => services.stopAll());

  it('writes a comment line while a model call is silent for longer than SSE_HEARTBEAT_MS, and the stream stays well formed', async () => {
    const service = await services.start({ env: { SSE_HEARTBEAT_MS: '100', DEMO_REASONING_MS: '700', DEMO_STEPS: '1' } });

    const stream = await startRun(service.baseUrl, user, runInput('thread-heartbeat', 'run-1', [{ id: 'u1', content: 'one step' }]));

    expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    expect(stream.comments.length).toBeGreaterThanOrEqual(2);
    expect(stream.comments.every((line) => line === ': heartbeat')).toBe(true);
    expect(stream.ids.map(Number)).toEqual(stream.events.map((_, index) => index + 1));
  });

  it('writes no comment line when SSE_HEARTBEAT_MS is 0', async () => {
    const service = await services.start({ env: { SSE_HEARTBEAT_MS: '0', DEMO_REASONING_MS: '300', DEMO_STEPS: '1' } });

    const stream = await startRun(service.baseUrl, user, runInput('thread-no-heartbeat', 'run-1', [{ id: 'u1', content: 'one step' }]));

    expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    expect(stream.comments).toEqual([]);
  });
});
