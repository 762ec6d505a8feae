import { drainSseFrames } from './sse-frames';

describe('drainSseFrames', () => {
  it('hands over each complete frame with its id and keeps the partial rest', () => {
    const frames: [string, string | undefined][] = [];
    const rest = drainSseFrames(
      'id: 7\ndata: {"a":1}\n\ndata: {"n":true}\n\n: heartbeat\n\nid: 8\ndata: {"b"',
      (data, id) => frames.push([data, id]),
    );
    expect(frames).toEqual([
      ['{"a":1}', '7'],
      ['{"n":true}', undefined],
    ]);
    expect(rest).toBe('id: 8\ndata: {"b"');
  });
});
