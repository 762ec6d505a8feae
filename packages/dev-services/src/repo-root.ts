import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository's root folder (the one with `nest-cli.json`), found from this file whether
 * it runs from source (`tools/…`, under jest) or built (`dist-tools/tools/…`).
 */
export const REPO_ROOT: string = (() => {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'nest-cli.json'))) return dir;
  }
  throw new Error(`no nest-cli.json above ${__dirname}: run from inside the repository`);
})();
