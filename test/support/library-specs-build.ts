import { glob, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from 'dev-services';
import ts from 'typescript';

/**
 * What the library's specs execute on the other Node majors, as repository-relative globs: the
 * library's sources with its specs and fixtures, the dev-services they import (its own specs
 * run on the main run only), and the probe that reports which peers a run loaded.
 */
const SOURCES = [
  'packages/nest-agent-graceful-shutdown/src/**/*.ts',
  'packages/nest-agent-graceful-shutdown/src/**/*.cts',
  'packages/dev-services/src/**/*.ts',
  'test/support/loaded-peers.probe.ts',
];

/** Not part of what the library's specs load. */
const EXCLUDED = ['packages/dev-services/src/**/*.spec.ts'];

/** The library's own compiler options: the emitted JavaScript is what ts-jest would run. */
const TSCONFIG = join(REPO_ROOT, 'packages', 'nest-agent-graceful-shutdown', 'tsconfig.json');

function compilerOptions(): ts.CompilerOptions {
  const { config, error } = ts.readConfigFile(TSCONFIG, (path) => ts.sys.readFile(path));
  if (error)
    throw new Error(
      `cannot read ${TSCONFIG}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`,
    );
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(TSCONFIG));
  return {
    ...options,
    declaration: false,
    sourceMap: false,
    inlineSourceMap: true,
    inlineSources: false,
    isolatedModules: true,
  };
}

/**
 * Transpiles the library's sources and specs, and the dev-services they import, into `outDir`
 * (same relative paths as in the repository, `.js` for `.ts`, `.cjs` for `.cts`), file by file as ts-jest's
 * `isolatedModules` does: no type check (`npm run typecheck` did it) and no module resolution,
 * so it takes a few seconds. A jest pointed at `outDir` then runs the specs with no transform;
 * each file's inline source map leads its stack traces back to the `.ts` file.
 *
 * @returns the number of files written.
 * @example
 * await transpileLibrarySpecs(join(REPO_ROOT, 'node_modules/.cache/library-specs/run'));
 */
export async function transpileLibrarySpecs(outDir: string): Promise<number> {
  const options = compilerOptions();
  let written = 0;
  for await (const file of glob(SOURCES, { cwd: REPO_ROOT, exclude: EXCLUDED })) {
    const source = await readFile(join(REPO_ROOT, file), 'utf8');
    // The map points at the source in the repository, so a failure shows its line in the .ts file.
    const sourceRoot = dirname(join(REPO_ROOT, file));
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { ...options, sourceRoot },
      fileName: file,
    });
    const target = join(outDir, file.replace(/\.ts$/, '.js').replace(/\.cts$/, '.cjs'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, outputText);
    written++;
  }
  return written;
}
