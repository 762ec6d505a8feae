import { join } from 'node:path';
import { REPO_ROOT } from 'dev-services';

/**
 * A built release of the reference service: where its `dist/main.js` is and which `node` runs
 * it. The rolling upgrade proof runs two of them side by side on one database.
 */
export interface ServiceBuild {
  /** How reports name it, e.g. `0.5.0 (75af8bf)` or `this checkout`. */
  release: string;
  /** The checkout whose `dist/main.js` is started; also the process's working directory. */
  dir: string;
  /** Absolute path of the `node` binary that runs it. */
  node: string;
  /** What that binary's `node --version` prints, e.g. `v22.22.0`. */
  nodeVersion: string;
}

/** This checkout's build (`npm run build`), on the Node that runs the tools (the project's Node 24 under npm scripts). */
export const THIS_BUILD: ServiceBuild = {
  release: 'this checkout',
  dir: REPO_ROOT,
  node: process.execPath,
  nodeVersion: process.version,
};

/** The entry point of `build`. */
export function mainOf(build: ServiceBuild): string {
  return join(build.dir, 'dist', 'main.js');
}
