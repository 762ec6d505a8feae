// The package's dual build: the same sources compiled twice by tsc with `module: nodenext`, once
// as CommonJS into dist/cjs (for `require`) and once as ES modules into dist/esm (for `import`).
// `nodenext` takes each file's format from the nearest package.json "type", so the ESM pass runs
// while src/ holds one saying "module"; each output folder gets one naming its format, which is
// how Node and TypeScript read the `.js` and `.d.ts` files in it. A host loads one of the two
// builds and, through it, every peer in its own format: one module instance of each.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Writes a package.json that says which module format the files in `dir` are. */
function markFormat(dir, type) {
  writeFileSync(join(HERE, dir, 'package.json'), `${JSON.stringify({ type })}\n`);
}

function tsc(project) {
  execFileSync(process.execPath, [TSC, '-p', project], { cwd: HERE, stdio: 'inherit' });
}

const FORMAT_MARK = join(HERE, 'src/package.json');
// A build stopped during its ESM pass leaves the mark behind: the CommonJS pass must not see it.
rmSync(FORMAT_MARK, { force: true });
rmSync(join(HERE, 'dist'), { recursive: true, force: true });
tsc('tsconfig.build.json');
markFormat('dist/cjs', 'commonjs');
markFormat('src', 'module');
try {
  tsc('tsconfig.build.esm.json');
} finally {
  rmSync(FORMAT_MARK, { force: true });
}
markFormat('dist/esm', 'module');
