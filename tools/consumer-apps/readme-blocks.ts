import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';
import { LIBRARY_README } from './readme-install';

/** One TypeScript block of the library README, as written, and the file it is compiled as. */
export interface ReadmeBlock {
  /** Its path under the app's `src/readme/`: the file its first line names, else `block-<line>.ts`. */
  file: string;
  /** The block's text, unchanged. */
  source: string;
  /** The README line of its opening fence, from 1. */
  line: number;
}

/** The package the README documents: the apps install it from its tarball, not from a registry. */
const LIBRARY_NAME = 'nest-agent-graceful-shutdown';

/** A first line such as `// support-agent.ts` or `// src/chat.controller.ts (…)`: the file a block is. */
const FILE_COMMENT = /^\/\/ (?:src\/)?([\w./-]+\.ts)\b/;

/** The file a block is written as: the one its first comment names (without `src/`), else one named after its line. */
function blockFile(source: string, line: number): string {
  const named = FILE_COMMENT.exec(source.split('\n')[0] ?? '')?.[1];
  if (!named) return `block-${line}.ts`;
  const file = normalize(named);
  if (file.startsWith('..') || file.startsWith(sep))
    throw new Error(`README line ${line}: the block names ${named}, outside the app's src/`);
  return file;
}

/**
 * Every ```ts and ```typescript block of the library README (or of `readme`), unchanged, each
 * with the file it is compiled as. Blocks that import each other name their file in a first-line
 * comment (`// support-agent.ts`), so `./support-agent.js` resolves; the others get
 * `block-<line>.ts`. Throws when two blocks name the same file.
 *
 * @example
 * readmeTypeScriptBlocks('```ts\n// a.ts\nexport const a = 1;\n```'); // [{ file: 'a.ts', source: '// a.ts\nexport const a = 1;\n', line: 1 }]
 */
export function readmeTypeScriptBlocks(
  readme: string = readFileSync(LIBRARY_README, 'utf8'),
): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const lines = readme.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const fence = /^(`{3,})(\w*)/.exec(lines[index]);
    if (!fence) continue;
    const start = index;
    while (++index < lines.length && !lines[index].startsWith(fence[1]));
    if (fence[2] !== 'ts' && fence[2] !== 'typescript') continue;
    const source = lines.slice(start + 1, index).join('\n') + '\n';
    blocks.push({ file: blockFile(source, start + 1), source, line: start + 1 });
  }
  const taken = new Map<string, number>();
  for (const { file, line } of blocks) {
    const other = taken.get(file);
    if (other !== undefined) throw new Error(`README lines ${other} and ${line} both name ${file}`);
    taken.set(file, line);
  }
  return blocks;
}

/** Writes every README block (see `readmeTypeScriptBlocks`) under `<appDir>/src/readme/`; returns the paths written. */
export function writeReadmeBlocks(appDir: string): string[] {
  return readmeTypeScriptBlocks().map(({ file, source }) => {
    const path = join(appDir, 'src', 'readme', file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, source);
    return path;
  });
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The packages the README's blocks import (static imports, `export … from` and `import('…')`
 * types), sorted, without Node's own modules and without the library itself (the apps install
 * its tarball): what an app installs before it compiles the blocks.
 */
export function readmeImportedPackages(readme?: string): string[] {
  const specifiers = readmeTypeScriptBlocks(readme).flatMap(({ source }) =>
    [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm)].map(
      (match) => match[2],
    ),
  );
  const bare = specifiers.filter(
    (specifier) =>
      !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('node:'),
  );
  const packages = new Set(
    bare.map(packageOf).filter((name) => name !== LIBRARY_NAME && !builtinModules.includes(name)),
  );
  return [...packages].sort();
}
