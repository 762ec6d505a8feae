import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from 'dev-services';

/** The packed library: the tarball's path and the files it holds. */
export interface PackedLibrary {
  tarball: string;
  files: string[];
}

/** Packs the library as `npm publish` would (`npm pack -w nest-agent-graceful-shutdown`), into a fresh folder. Needs `npm run build` first. */
export async function packLibrary(): Promise<PackedLibrary> {
  const destination = mkdtempSync(join(tmpdir(), 'library-pack-'));
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '-w', 'nest-agent-graceful-shutdown', '--pack-destination', destination, '--json'],
    {
      cwd: REPO_ROOT,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const [packed] = JSON.parse(stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return {
    tarball: join(destination, packed.filename),
    files: packed.files.map((file) => file.path),
  };
}
