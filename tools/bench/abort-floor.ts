import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { summarize } from './bench-stats';

/** The least it costs this Node to stop `calls` pending calls: the median of `samplesMs`. */
export interface AbortFloor {
  medianMs: number;
  samplesMs: number[];
  calls: number;
}

// Built beside this file in dist-tools.
const CHILD = resolve(__dirname, 'abort-floor-child.js');

/**
 * The least any Node service pays to stop `calls` runs that each wait in a call: in a fresh
 * process of the same Node, `calls` pending `AbortSignal`-aware sleeps (the kind of call the
 * demo model makes; a `fetch` to a model provider is aborted the same way), all aborted at
 * once, timed until every one has settled; median of `repeats`. Nothing of the service runs.
 */
export async function measureAbortFloor(calls: number, repeats = 3): Promise<AbortFloor> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CHILD, String(calls), String(repeats)],
    { timeout: 60_000 },
  );
  const { samplesMs } = JSON.parse(stdout) as { samplesMs: number[] };
  return { medianMs: summarize(samplesMs).p50, samplesMs, calls };
}
