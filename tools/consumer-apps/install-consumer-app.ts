import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from 'dev-services';
import type { ConsumerApp } from './consumer-app-matrix';
import { installCommands } from './install-commands';
import { libraryReadmeInstallLines } from './readme-install';

const run = promisify(execFile);
const FIXTURES = join(REPO_ROOT, 'test/fixtures/consumer-apps');

/** What an install ran, for the report of a failure. */
export interface InstalledApp {
  dir: string;
  /** The shell commands run, in order: the README's lines with the tarball and the pins. */
  commands: string[];
}

/**
 * Makes the consumer app `app` in a fresh folder: its sources (`shared/` with the app's own
 * folder over it), a `package.json` of its module type, then the README's install lines for it
 * (see `installCommands`: tarball, pins, extras; npm's default peer resolution), then `tsc`.
 * `pins` overrides the app's own (the newest-peers run). Throws with npm's or tsc's output.
 */
export async function installConsumerApp(app: ConsumerApp, tarball: string, pins: Record<string, string> = app.pins): Promise<InstalledApp> {
  const dir = mkdtempSync(join(tmpdir(), `consumer-${app.name}-`));
  cpSync(join(FIXTURES, 'shared'), dir, { recursive: true });
  cpSync(join(FIXTURES, app.name), dir, { recursive: true });
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `consumer-${app.name}`, private: true, type: app.packageType }, null, 2)}\n`);
  const commands = installCommands(libraryReadmeInstallLines(app.readmeBlock), { tarball, pins, extras: app.extras });
  for (const command of commands) {
    await run('bash', ['-c', command], { cwd: dir, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`\`${command}\` failed in ${dir}:\n${(error.stderr || error.message).trim()}`);
    });
  }
  await run(join(dir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir, timeout: 120_000 }).catch((error: { stdout?: string }) => {
    throw new Error(`the ${app.name} app does not compile:\n${error.stdout ?? ''}`);
  });
  return { dir, commands };
}
