import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findExecutable, installDebianPackages } from 'dev-services';

const execFileAsync = promisify(execFile);

/** A build or a stop can take minutes; past 15 something is stuck, not slow. */
const COMMAND_TIMEOUT_MS = 900_000;

/**
 * Debian's podman as root on a machine without systemd or a Docker engine: the runc runtime, the
 * cgroupfs manager, and no default ulimits (the machine refuses to raise them). Containers use
 * the host's network, so they reach loopback and the package registries.
 */
export class Podman {
  private readonly env: NodeJS.ProcessEnv;

  constructor(cacheDir: string) {
    mkdirSync(cacheDir, { recursive: true });
    const conf = join(cacheDir, 'containers.conf');
    writeFileSync(conf, '[containers]\ndefault_ulimits = []\n');
    this.env = { ...process.env, CONTAINERS_CONF: conf };
  }

  /** Installs podman, runc and debootstrap from Debian's packages when one is missing (as root). */
  static async ensureInstalled(): Promise<void> {
    const wanted = { podman: 'podman', runc: 'runc', debootstrap: 'debootstrap' };
    const missing = Object.entries(wanted).flatMap(([binary, pkg]) =>
      findExecutable(binary, ['/usr/sbin', '/usr/bin']) ? [] : [pkg],
    );
    await installDebianPackages(missing, 'the image proof');
  }

  /** Runs `podman <args>` and returns its standard output; throws with its last lines of stderr. */
  async run(
    args: string[],
    options: { input?: NodeJS.ReadableStream; timeoutMs?: number } = {},
  ): Promise<string> {
    const full = ['--runtime', '/usr/sbin/runc', '--cgroup-manager=cgroupfs', ...args];
    try {
      const child = execFileAsync('podman', full, {
        env: this.env,
        timeout: options.timeoutMs ?? COMMAND_TIMEOUT_MS,
        maxBuffer: 256 * 1024 * 1024,
      });
      if (options.input) options.input.pipe(child.child.stdin!);
      return (await child).stdout.trim();
    } catch (error) {
      const { stderr, stdout, message } = error as {
        stderr?: string;
        stdout?: string;
        message: string;
      };
      const tail = `${stdout ?? ''}\n${stderr ?? message}`.trim().split('\n').slice(-15).join('\n');
      throw new Error(`\`podman ${args.join(' ')}\` failed:\n${tail}`);
    }
  }

  /** True when an image of that name is in local storage. */
  async hasImage(name: string): Promise<boolean> {
    return this.run(['image', 'exists', name]).then(
      () => true,
      () => false,
    );
  }
}
