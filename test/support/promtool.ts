import { execFile } from 'node:child_process';
import { ensurePromtool } from 'dev-services';

/** promtool works offline on a few small files: past this something hangs. */
const PROMTOOL_TIMEOUT_MS = 60_000;

/** The outcome of one promtool command. */
export interface PromtoolResult {
  exitCode: number;
  output: string;
}

/** `promtool <args>` in `cwd` (fetched on first use, see ensurePromtool); never throws on a non-zero exit. */
export async function promtool(args: string[], cwd: string): Promise<PromtoolResult> {
  const binary = await ensurePromtool();
  return new Promise((resolveResult, reject) => {
    execFile(binary, args, { cwd, timeout: PROMTOOL_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number')
        return reject(new Error(`promtool ${args.join(' ')}: ${error.message}`));
      resolveResult({ exitCode: error ? (error.code as number) : 0, output: `${stdout}${stderr}` });
    });
  });
}
