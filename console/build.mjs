// Bundles the console page (`console/src`, Preact in TSX) into `dist/console/`, which the service
// serves at `/` (see src/app/console). Run by `npm run build`; type checking is `tsc -p console`.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const outdir = join(here, '..', 'dist', 'console');

await mkdir(outdir, { recursive: true });
await build({
  entryPoints: { console: join(here, 'src', 'main.tsx') },
  outdir,
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
await copyFile(join(here, 'index.html'), join(outdir, 'index.html'));
