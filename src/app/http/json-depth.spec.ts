import { nestsDeeperThan } from './json-depth';

const deeper = (text: string, max: number) => nestsDeeperThan(Buffer.from(text), max);

describe('nestsDeeperThan', () => {
  it('counts objects and arrays alike, and only while they are open', () => {
    expect(deeper('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(deeper('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(deeper('[[],[],[],[]]', 2)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(deeper('{"a":"[[[{{{"}', 1)).toBe(false);
    expect(deeper('{"a":"\\"[[[","b":"\\\\"}', 1)).toBe(false);
    expect(deeper('{"a":"\\\\","b":[[1]]}', 2)).toBe(true);
  });

  it('stops at the first level too deep of a very deep body', () => {
    expect(deeper(`${'['.repeat(1_000_000)}`, 64)).toBe(true);
    expect(deeper(`${'['.repeat(64)}${']'.repeat(64)}`, 64)).toBe(false);
  });
});
