import { groupBySlot, redisKeySlot } from './redis-key-slot.js';

describe('redisKeySlot', () => {
  it('matches the slots Redis Cluster gives keys without a hash tag', () => {
    // CLUSTER KEYSLOT answers of Redis 7.
    expect(redisKeySlot('foo')).toBe(12182);
    expect(redisKeySlot('bar')).toBe(5061);
    expect(redisKeySlot('123456789')).toBe(12739);
  });

  it('hashes only the hash tag when the key has a non-empty one', () => {
    expect(redisKeySlot('agents:log:{t:r}')).toBe(redisKeySlot('t:r'));
    expect(redisKeySlot('agents:log-writer:{t:r}')).toBe(redisKeySlot('agents:log:{t:r}'));
  });

  it('hashes the whole key when its first braces hold nothing', () => {
    // CLUSTER KEYSLOT answers of Redis 7.
    expect(redisKeySlot('a{}b')).toBe(13694);
    expect(redisKeySlot('{}{user}')).toBe(6164);
  });

  it('groups keys by slot, each group in the given order', () => {
    const keys = ['log:{a}', 'x:{b}', 'writer:{a}', 'cancel:{a}'];

    expect(groupBySlot(keys, (key) => key)).toEqual([
      ['log:{a}', 'writer:{a}', 'cancel:{a}'],
      ['x:{b}'],
    ]);
  });
});
