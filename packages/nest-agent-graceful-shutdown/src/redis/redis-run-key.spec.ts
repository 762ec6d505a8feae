import { redisKeySlot } from './redis-key-slot.js';
import { RedisLogWire } from './redis-log-wire.js';
import { RedisRunKey } from './redis-run-key.js';
import { RedisSignalWire } from './redis-signal-wire.js';

describe('RedisRunKey', () => {
  it('keeps the key names of a standalone Redis: encoded ids, no hash tag', () => {
    expect(new RedisRunKey('agents:', false).key('cancel', 'thread:1', 'run{1}')).toBe(
      'agents:cancel:thread%3A1:run%7B1%7D',
    );
  });

  it('puts the run in a hash tag on a cluster, so every key of the run shares a slot', () => {
    const run = { threadId: 'thread:1', runId: 'run{1}' };
    const signals = new RedisSignalWire('agents:', true);
    const logs = new RedisLogWire('agents:', true);

    expect(signals.cancelKey(run.threadId, run.runId)).toBe(
      'agents:cancel:{thread%3A1:run%7B1%7D}',
    );
    expect(logs.logKey(run)).toBe('agents:log:{thread%3A1:run%7B1%7D}');
    expect(
      new Set(
        [signals.cancelKey(run.threadId, run.runId), logs.logKey(run), logs.writerKey(run)].map(
          redisKeySlot,
        ),
      ).size,
    ).toBe(1);
  });

  it('refuses a prefix with braces on a cluster only, for the bus and the log alike', () => {
    expect(() => new RedisSignalWire('{agents}:', true)).toThrow(/braces/);
    expect(() => new RedisLogWire('{agents}:', true)).toThrow(/braces/);
    expect(new RedisSignalWire('{agents}:').cancelKey('t', 'r')).toBe('{agents}:cancel:t:r');
  });
});
