import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A test file the Node-version runs add to the library's specs (see
 * test/node-versions.e2e-spec.ts): it resolves each peer named by PEER_PROBE_NAMES through the
 * run's own module resolution (the peer-set resolver when the run has a set) and writes the
 * version of the package it lands in to PEER_PROBE_FILE, so the outer suite can show which
 * releases the specs loaded, not only which ones were installed.
 */

/** The version in the nearest package.json of that package above an entry point. */
function versionOf(name: string): string {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    let parsed: { name?: string; version?: string } | undefined;
    try {
      parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    } catch {
      continue; // no package.json at this level
    }
    if (parsed.name === name && parsed.version) return parsed.version;
  }
  throw new Error(`no package.json named ${name} above ${require.resolve(name)}`);
}

it('reports the version of each peer that the specs of this run load', () => {
  const names = JSON.parse(process.env.PEER_PROBE_NAMES ?? '[]') as string[];
  const file = process.env.PEER_PROBE_FILE;
  expect(file).toBeTruthy();
  expect(names.length).toBeGreaterThan(0);
  writeFileSync(
    file!,
    JSON.stringify(Object.fromEntries(names.map((name) => [name, versionOf(name)]))),
  );
});
