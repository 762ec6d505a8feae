import { SseFrameParser } from './sse-frame-parser.js';

describe('SseFrameParser', () => {
  it('keeps the id of each frame and joins its data lines', () => {
    const frames = new SseFrameParser().push('id: 1\ndata: {"a":\ndata: 1}\n\nid: 2\ndata: {}\n\n');

    expect(frames).toEqual([
      { id: '1', data: '{"a":\n1}' },
      { id: '2', data: '{}' },
    ]);
  });

  it('leaves the id out of a frame that carried none, even after a numbered one', () => {
    const frames = new SseFrameParser().push('id: 7\ndata: {}\n\ndata: {"notice":true}\n\n');

    expect(frames[1]).toEqual({ data: '{"notice":true}' });
  });

  it('assembles frames split across chunks anywhere, CR LF included', () => {
    const parser = new SseFrameParser();
    const text = 'id: 3\r\ndata: {"x":"é"}\r\n\r\n';
    const frames = [...text].flatMap((char) => parser.push(char));

    expect(frames).toEqual([{ id: '3', data: '{"x":"é"}' }]);
  });

  it('reports comment lines and dispatches no frame for them', () => {
    const comments: string[] = [];
    const frames = new SseFrameParser((text) => comments.push(text)).push(': heartbeat\n\n');

    expect(frames).toEqual([]);
    expect(comments).toEqual(['heartbeat']);
  });

  it('holds back a frame until its blank line arrives', () => {
    const parser = new SseFrameParser();

    expect(parser.push('id: 4\ndata: {}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '4', data: '{}' }]);
  });
});
