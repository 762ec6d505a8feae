/** One server-sent event: its `data` lines joined with `\n`, and the `id:` it carried itself, if any. */
export interface SseFrame {
  /** The frame's own `id:` field (not inherited from an earlier frame); absent when it had none. */
  id?: string;
  /** The `data:` lines of the frame, joined with `\n`. */
  data: string;
}

/**
 * An incremental parser of a `text/event-stream` body. Unlike a browser `EventSource`, it keeps
 * each frame's own `id:`, so a frame without one (a notice of the connection) is told apart from
 * the run's numbered events. Lines end with `\n`, `\r\n` or `\r`; comment lines (`: heartbeat`)
 * are reported to `onComment`; a frame still open when the body ends is incomplete and dropped.
 *
 * @example
 * const parser = new SseFrameParser();
 * parser.push('id: 1\ndata: {"type":"RUN_STARTED"}\n\n'); // [{ id: '1', data: '{"type":"RUN_STARTED"}' }]
 */
export class SseFrameParser {
  private buffer = '';
  private data: string[] = [];
  private id?: string;

  /** @param onComment called for every comment line (its text after the colon). @default none */
  constructor(private readonly onComment: (text: string) => void = () => undefined) {}

  /** Feeds decoded text; returns the frames completed by it, in order. */
  push(text: string): SseFrame[] {
    this.buffer += text;
    const frames: SseFrame[] = [];
    let start = 0;
    for (;;) {
      const end = this.lineEnd(start);
      if (end < 0) break;
      const line = this.buffer.slice(start, end);
      start = end + (this.buffer[end] === '\r' && this.buffer[end + 1] === '\n' ? 2 : 1);
      const frame = this.line(line);
      if (frame) frames.push(frame);
    }
    this.buffer = this.buffer.slice(start);
    return frames;
  }

  /** Index of the next line terminator from `start`, or -1; a trailing `\r` waits for a possible `\n`. */
  private lineEnd(start: number): number {
    for (let i = start; i < this.buffer.length; i++) {
      const char = this.buffer[i];
      if (char === '\n') return i;
      if (char === '\r') return i + 1 < this.buffer.length ? i : -1;
    }
    return -1;
  }

  private line(line: string): SseFrame | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.onComment(line.slice(1).trimStart());
      return undefined;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }

  private dispatch(): SseFrame | undefined {
    const frame =
      this.data.length > 0
        ? { data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) }
        : undefined;
    this.data = [];
    this.id = undefined;
    return frame;
  }
}
