import { isFailing, parseClusterNodes, sameSlots, servesSlot } from './cluster-nodes';

/** A `CLUSTER NODES` reply of Redis 7 after a failover: 7001 died, 7004 took its slots. */
const REPLY = [
  'a1 127.0.0.1:7001@17001 master,fail - 1 2 1 disconnected',
  'a2 127.0.0.1:7002@17002 myself,master - 0 0 2 connected 5461-10922',
  'a4 127.0.0.1:7004@17004 master - 0 3 7 connected 0-5460',
  'a5 127.0.0.1:7005@17005 slave a2 0 4 2 connected',
  '',
].join('\n');

describe('parseClusterNodes', () => {
  it('reads each node’s port, flags and slot ranges', () => {
    expect(parseClusterNodes(REPLY)).toEqual([
      { port: 7001, flags: ['master', 'fail'], slots: [] },
      { port: 7002, flags: ['myself', 'master'], slots: ['5461-10922'] },
      { port: 7004, flags: ['master'], slots: ['0-5460'] },
      { port: 7005, flags: ['slave'], slots: [] },
    ]);
  });

  it('tells a failing node, the slots a node serves, and nodes serving the same slots', () => {
    const [dead, second, heir] = parseClusterNodes(REPLY);

    expect([isFailing(dead), isFailing(heir)]).toEqual([true, false]);
    expect([servesSlot(heir, 0), servesSlot(heir, 5461), servesSlot(second, 10922)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(sameSlots(heir, { ...heir, port: 1 })).toBe(true);
    expect(sameSlots(dead, { ...dead, port: 1 })).toBe(false);
  });
});
