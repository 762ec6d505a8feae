import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version label of an app that names none: its `package.json` has none either. */
export const UNVERSIONED = 'unversioned';

/**
 * The release label of agents that set no `version` (module option `runs.agentVersion` unset):
 * the `version` of the `package.json` in the working directory, which is the app's own when it
 * starts from its folder (`npm start`, `node dist/main.js`, a container's `WORKDIR`).
 */
export function defaultAgentVersion(directory: string = process.cwd()): string {
  try {
    const { version } = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof version === 'string' && version.length > 0 ? version : UNVERSIONED;
  } catch {
    return UNVERSIONED;
  }
}
