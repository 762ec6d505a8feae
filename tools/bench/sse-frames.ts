/**
 * Hands the `data` of each complete SSE frame in `buffer` to `onData` (multi-line data joined
 * with newlines, as the SSE spec says; frames without data skipped), with the frame's `id`
 * when it has one, and returns what is left: the start of a frame still arriving.
 */
export function drainSseFrames(
  buffer: string,
  onData: (data: string, id?: string) => void,
): string {
  let rest = buffer;
  let split: number;
  while ((split = rest.indexOf('\n\n')) >= 0) {
    const lines = rest.slice(0, split).split('\n');
    const data = lines
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    const id = lines
      .find((line) => line.startsWith('id:'))
      ?.slice(3)
      .trimStart();
    rest = rest.slice(split + 2);
    if (data) onData(data, id);
  }
  return rest;
}
