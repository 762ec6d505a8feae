import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from 'dev-services';
import type { ConsumerApp } from './consumer-app-matrix';
import { INSTALL_FLAGS, installCommands } from './install-commands';
import { libraryReadmeInstallLines } from './readme-install';

const run = promisify(execFile);
const FIXTURES = join(REPO_ROOT, 'test/fixtures/consumer-apps');

/** What an install ran, for the report of a failure. */
export interface InstalledApp {
  dir: string;
  /** The shell commands run, in order: the README's lines with the tarball and the pins. */
  commands: string[];
}

/** Runs `command` with bash in the app at `dir`; throws with npm's output. */
async function runIn(dir: string, command: string): Promise<void> {
  await run('bash', ['-c', command], {
    cwd: dir,
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`\`${command}\` failed in ${dir}:\n${(error.stderr || error.message).trim()}`);
  });
}

/**
 * Makes the consumer app `app` in a fresh folder: its sources (`shared/` with the app's own
 * folder over it), a `package.json` of its module type, then the README's install lines for it
 * (see `installCommands`: tarball, pins, extras; npm's default peer resolution), then compiles
 * it (`compileConsumerApp`). `pins` overrides the app's own (the newest-peers run). Throws with
 * npm's or tsc's output.
 */
export async function installConsumerApp(
  app: ConsumerApp,
  tarball: string,
  pins: Record<string, string> = app.pins,
): Promise<InstalledApp> {
  const dir = mkdtempSync(join(tmpdir(), `consumer-${app.name}-`));
  cpSync(join(FIXTURES, 'shared'), dir, { recursive: true });
  cpSync(join(FIXTURES, app.name), dir, { recursive: true });
  mkdirSync(join(dir, 'data'));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `consumer-${app.name}`, private: true, type: app.packageType }, null, 2)}\n`,
  );
  const commands = installCommands(libraryReadmeInstallLines(app.readmeBlock), {
    tarball,
    pins,
    extras: app.extras,
  });
  for (const command of commands) await runIn(dir, command);
  await compileConsumerApp(app, dir);
  return { dir, commands };
}

/**
 * Compiles the app at `dir` as its `nest build` would: the app's own `tsc` with its
 * `tsconfig.build.json` (the template's), into `dist/`. Throws with the compiler's errors.
 */
export async function compileConsumerApp(app: ConsumerApp, dir: string): Promise<void> {
  await run(join(dir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], {
    cwd: dir,
    timeout: 120_000,
  }).catch((error: { stdout?: string }) => {
    throw new Error(`the ${app.name} app does not compile:\n${error.stdout ?? ''}`);
  });
}

/**
 * Adds packages to the installed app at `dir` (`npm install <specs>` with `INSTALL_FLAGS`, the
 * app's earlier packages kept) and lays the fixture folders `fixtures` (under
 * `test/fixtures/consumer-apps/`) over its sources. The caller compiles (`compileConsumerApp`).
 *
 * @example
 * await addToConsumerApp(dir, CJS_APP.frameworks, ['frameworks']);
 */
export async function addToConsumerApp(
  dir: string,
  specs: readonly string[],
  fixtures: readonly string[] = [],
): Promise<void> {
  // Never an install anywhere else (the repository itself, when an earlier install failed).
  const name = dir
    ? (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name
    : undefined;
  if (!name?.startsWith('consumer-')) throw new Error(`no consumer app in ${dir}`);
  await runIn(dir, ['npm install', ...specs, ...INSTALL_FLAGS].join(' '));
  for (const fixture of fixtures) cpSync(join(FIXTURES, fixture), dir, { recursive: true });
}

/**
 * The packages of `names` that the app at `dir` does not list in its `package.json` yet: what to
 * add for code that imports them, leaving the app's own pins (Nest 11 in the CommonJS app) as
 * they are.
 *
 * @example
 * await addToConsumerApp(dir, missingFromApp(dir, ['@nestjs/common', '@nestjs/terminus'])); // adds @nestjs/terminus only
 */
export function missingFromApp(dir: string, names: readonly string[]): string[] {
  const { dependencies = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return [...new Set(names)].filter((name) => !(name in dependencies));
}
