/** One full (mark-compact) collection of the V8 heap, as `node --trace-gc` prints it. */
export interface MajorGc {
  /** Heap used before and after the collection, in MB (V8's own MB, 2^20 bytes). */
  beforeMb: number;
  afterMb: number;
}

const MARK_COMPACT =
  /\bMark-Compact(?: \([a-z ]+\))? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB\b/;

/**
 * Reads a `--trace-gc` line of a full collection; undefined for any other line (scavenges, the
 * service's JSON log). The heap used after a full collection is what the program still holds:
 * unlike heap used sampled at any moment, it has no garbage in it, so a leak shows as its rise.
 *
 * @example
 * majorGcOf('[1:0x1]  503 ms: Mark-Compact 113.2 (230.9) -> 39.4 (171.2) MB, pooled: 46 MB, …'); // { beforeMb: 113.2, afterMb: 39.4 }
 */
export function majorGcOf(line: string): MajorGc | undefined {
  if (line.startsWith('{')) return undefined;
  const match = MARK_COMPACT.exec(line);
  return match ? { beforeMb: Number(match[1]), afterMb: Number(match[2]) } : undefined;
}
