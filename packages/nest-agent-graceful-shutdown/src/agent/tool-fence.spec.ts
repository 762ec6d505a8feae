import { idempotencyKeyOf, toolFenceOf } from './tool-fence.js';

describe('idempotencyKeyOf', () => {
  it('is the documented derivation, so every instance and release computes the same key', () => {
    // `tc_` + SHA-256 hex of JSON.stringify(['thread-1', 'call_1'])
    expect(idempotencyKeyOf('thread-1', 'call_1')).toBe(
      'tc_551daa363ee2d6cbaca45a9bb7541c8d5fc3369a8159beaa8881fa83ea997c64',
    );
  });

  it('differs between threads for one tool-call id, since tool-call ids are unique per thread only', () => {
    expect(idempotencyKeyOf('thread-1', 'call_1')).not.toBe(idempotencyKeyOf('thread-2', 'call_1'));
  });

  it('keeps the thread and the call apart whatever characters they hold', () => {
    expect(idempotencyKeyOf('a:b', 'c')).not.toBe(idempotencyKeyOf('a', 'b:c'));
  });
});

describe('toolFenceOf', () => {
  it("pairs the call's key with the attempt's token", () => {
    expect(toolFenceOf('thread-1', 'call_1', 4)).toEqual({
      idempotencyKey: idempotencyKeyOf('thread-1', 'call_1'),
      fencingToken: 4,
    });
  });
});
