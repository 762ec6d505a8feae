import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from 'dev-services';

/** The library README, whose install lines the consumer apps run. */
export const LIBRARY_README = join(REPO_ROOT, 'packages/nest-agent-graceful-shutdown/README.md');

/**
 * The `npm` lines of the README's install block for `label` (`ESM` or `CommonJS`): the fenced
 * `bash` block under `## Install` whose first comment line names the label. Throws, naming the
 * label, when the README has no such block, so a README that drifts fails the consumer proof.
 *
 * @example
 * readmeInstallLines(readFileSync(LIBRARY_README, 'utf8'), 'ESM'); // ['npm pkg set …', 'npm install …']
 */
export function readmeInstallLines(readme: string, label: string): string[] {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Install\n'));
  if (!section) throw new Error('the library README has no "## Install" section');
  const blocks = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((match) =>
    match[1].split('\n'),
  );
  const block = blocks.find((lines) => new RegExp(`^#.*\\b${label}\\b`).test(lines[0] ?? ''));
  if (!block)
    throw new Error(
      `the library README's install section has no bash block whose first comment names "${label}"`,
    );
  return block.map((line) => line.trim()).filter((line) => line.startsWith('npm '));
}

/** Reads the library README and returns the install lines for `label` (see `readmeInstallLines`). */
export function libraryReadmeInstallLines(label: string): string[] {
  return readmeInstallLines(readFileSync(LIBRARY_README, 'utf8'), label);
}
