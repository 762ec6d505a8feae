import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConsumerProof,
  CountingOpenAiServer,
  describeMode,
  ESM_APP,
  installedVersion,
  nodeBinary,
  packLibrary,
} from '../consumer-apps';
import { installNewest } from './install-newest';
import { latestVersions, PEERS } from './latest-versions';
import { versionsTable } from './versions-table';

/**
 * `npm run deps:latest`: the consumer proof of app (a), the ESM app, on the newest release of
 * every peer. Asks npm for each peer's newest version, installs them all into a scratch copy of
 * the app from the packed library (a peer npm refuses is left out and reported), runs the app's
 * proof in each of its modes, and prints which versions it tested and the result. Exits 1 when
 * anything failed or was refused.
 */
async function main(): Promise<number> {
  const [newest, packed, openai] = await Promise.all([
    latestVersions(PEERS),
    packLibrary(),
    CountingOpenAiServer.start(),
  ]);
  try {
    const install = await installNewest(ESM_APP, packed.tarball, { ...ESM_APP.pins, ...newest });
    const dir = install.installed?.dir;
    const rows = await Promise.all(
      PEERS.map(async (name) => ({
        name,
        newest: newest[name],
        installed:
          install.refused[name] ?? (dir ? await installedVersion(dir, name) : 'not installed'),
      })),
    );
    const proofs: Array<{ name: string; result: string }> = [];
    if (!dir)
      proofs.push({
        name: 'install',
        result: `failed: ${install.error?.split('\n').slice(0, 6).join(' ')}`,
      });
    for (const mode of dir ? ESM_APP.modes : []) {
      const env = {
        SQLITE_FILE: join(mkdtempSync(join(tmpdir(), 'deps-latest-')), 'agents.sqlite'),
        OPENAI_BASE_URL: openai.baseUrl,
      };
      const proof = new ConsumerProof(dir!, mode, await nodeBinary(mode.node), env);
      const result = await proof
        .interruptMidRun()
        .then(() => proof.resumeOnRestart())
        .then(() => 'pass')
        .catch(
          (error: Error) =>
            `FAIL: ${[error.message.split('\n')[0], /ERROR \[\w+\] (.*)/.exec(error.message)?.[1]].filter(Boolean).join('; ')}`,
        )
        .finally(() => proof.stop());
      proofs.push({ name: describeMode(ESM_APP, mode), result });
    }
    console.log(versionsTable(rows, proofs));
    return proofs.every((proof) => proof.result === 'pass') &&
      Object.keys(install.refused).length === 0
      ? 0
      : 1;
  } finally {
    await openai.close();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
