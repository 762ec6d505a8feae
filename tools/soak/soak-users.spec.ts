import { SeededStream } from '../chaos/seeded-stream';
import { SoakUsers } from './soak-users';

const users = (clients: number) =>
  new SoakUsers({
    baseUrl: 'http://127.0.0.1:9',
    clients,
    threadPrefix: 'soak',
    tokenOf: (user) => `token-${user}`,
    random: new SeededStream(1),
    reconnectTimeoutMs: 1_000,
  });

describe('SoakUsers', () => {
  it('opens a thread while the load goes on, and none once it is over', async () => {
    const soak = users(1);
    // The load goes on at the first check only: the user opens its thread, whose turns then see it over.
    let checks = 0;
    await soak.converse(() => checks++ === 0, 1_000);
    expect(soak.all.map((user) => user.threadId)).toEqual(['soak-t1-1']);
    expect(soak.active).toEqual(soak.all);
    expect([...soak.tokens]).toEqual([['soak-t1-1', 'token-1']]);
  });

  it('opens no thread when the load is over before it starts', async () => {
    const soak = users(3);
    await soak.converse(() => false, 1_000);
    expect(soak.all).toEqual([]);
    expect(soak.turnCounts()).toEqual({ completed: 0, cancelled: 0 });
  });
});
