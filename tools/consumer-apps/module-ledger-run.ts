import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readModuleLedger, type ModuleLoad } from './module-instances';

/** Node's arguments that load the consumer apps' module ledger (`shared/module-ledger.cjs`) before the app. */
export const LEDGER_PRELOAD = ['--require', './module-ledger.cjs'];

/** A fresh file for one process's module ledger. */
export function ledgerFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'consumer-ledger-')), 'modules.jsonl');
}

/**
 * Runs `entry` of the app at `dir` with `node` (a binary path) to its end, under the module
 * ledger, and returns what it loaded. Throws with its output unless it exits 0.
 */
export async function runWithModuleLedger(
  dir: string,
  node: string,
  entry: string,
): Promise<ModuleLoad[]> {
  const file = ledgerFile();
  await promisify(execFile)(node, [...LEDGER_PRELOAD, entry], {
    cwd: dir,
    env: { PATH: process.env.PATH, MODULE_LEDGER_FILE: file },
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `\`node ${entry}\` failed in ${dir}:\n${error.stdout ?? ''}${error.stderr || error.message}`,
    );
  });
  return readModuleLedger(file);
}
