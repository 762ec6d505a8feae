import { execFile } from 'node:child_process';
import { ensureKubernetesTools, REPO_ROOT } from 'dev-services';

/** The repository root: chart and manifest paths are relative to it. */
export { REPO_ROOT } from 'dev-services';

/** The chart under test, relative to {@link REPO_ROOT}. */
export const CHART_DIR = 'helm/agent-service';

/** helm and kubectl work offline on a few files: past this something hangs. */
const TOOL_TIMEOUT_MS = 60_000;

/** The outcome of one helm or kubectl command. */
export interface ToolResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `binary` with `args` in the repository root, without a shell; never throws on a non-zero exit. */
function runTool(binary: string, args: string[]): Promise<ToolResult> {
  return new Promise((resolveResult, reject) => {
    execFile(
      binary,
      args,
      { cwd: REPO_ROOT, timeout: TOOL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          return reject(new Error(`${binary} ${args.join(' ')}: ${error.message}`));
        resolveResult({ exitCode: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** `helm <args>`; the binary is fetched on first use (see ensureKubernetesTools). */
export async function helm(args: string[]): Promise<ToolResult> {
  return runTool((await ensureKubernetesTools()).helm, args);
}

/** `kubectl <args>`; kustomize needs no cluster. */
export async function kubectl(args: string[]): Promise<ToolResult> {
  return runTool((await ensureKubernetesTools()).kubectl, args);
}

/** What to render the chart with: values files (relative to the repository root) and `--set` pairs. */
export interface RenderOptions {
  release?: string;
  valuesFiles?: string[];
  set?: string[];
}

/** `helm template` arguments for {@link RenderOptions}, hooks (the test pod) included. */
export function templateArgs({
  release = 'agent-service',
  valuesFiles = [],
  set = [],
}: RenderOptions = {}): string[] {
  return [
    'template',
    release,
    CHART_DIR,
    ...valuesFiles.flatMap((file) => ['--values', file]),
    ...set.flatMap((pair) => ['--set', pair]),
  ];
}

/** The YAML `helm template` renders; throws with helm's message when it refuses. */
export async function helmTemplate(options: RenderOptions = {}): Promise<string> {
  const result = await helm(templateArgs(options));
  if (result.exitCode !== 0)
    throw new Error(`helm template failed (${result.exitCode}): ${result.stderr}`);
  return result.stdout;
}

/** The YAML `kubectl kustomize <dir>` renders; throws with kustomize's message when it fails. */
export async function kustomize(dir: string): Promise<string> {
  const result = await kubectl(['kustomize', dir]);
  if (result.exitCode !== 0)
    throw new Error(`kubectl kustomize ${dir} failed (${result.exitCode}): ${result.stderr}`);
  return result.stdout;
}
