import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from 'dev-services';

/**
 * The API reference (`npm run docs`): TypeDoc reads the library's doc comments with the repository's
 * `typedoc.config.mjs` and fails on any warning (a broken `{@link}`, an exported declaration that
 * mentions a type no entry exports). The suite runs it once, writing only its JSON model to a
 * temporary folder, and checks that it passes and documents every entry of the package's `exports`.
 */
const LIBRARY = join(REPO_ROOT, 'packages/nest-agent-graceful-shutdown');
const PACKAGE = 'nest-agent-graceful-shutdown';
const ANSI = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

interface TypeDocRun {
  exitCode: number;
  output: string;
  modules: { name: string; children?: unknown[] }[];
}

let run: TypeDocRun;
const outDir = mkdtempSync(join(tmpdir(), 'api-docs-'));

beforeAll(async () => {
  const json = join(outDir, 'api.json');
  const typedoc = join(REPO_ROOT, 'node_modules/typedoc/bin/typedoc');
  const result = await promisify(execFile)(process.execPath, [typedoc, '--json', json], {
    cwd: REPO_ROOT,
    timeout: 90_000,
  }).then(
    ({ stdout, stderr }) => ({ exitCode: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      exitCode: error.code ?? 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  const modules = result.exitCode === 0 ? JSON.parse(readFileSync(json, 'utf8')).children : [];
  run = { ...result, output: result.output.replace(ANSI, ''), modules };
}, 120_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The import path of every `exports` entry with types, as a user writes it. */
function exportedEntries(): string[] {
  const { exports } = JSON.parse(readFileSync(join(LIBRARY, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { import?: { types?: string } }>;
  };
  return Object.entries(exports)
    .filter(([, target]) => typeof target === 'object' && target.import?.types !== undefined)
    .map(([subpath]) => (subpath === '.' ? PACKAGE : `${PACKAGE}/${subpath.slice(2)}`));
}

describe('the API reference', () => {
  it('builds from the doc comments without a warning or an error', () => {
    expect(run.output.split('\n').filter((line) => /^\[(warning|error)\]/.test(line))).toEqual([]);
    expect(run.exitCode).toBe(0);
  });

  it("has one module per entry of the package's exports, named by its import path, none empty", () => {
    expect(run.modules.map((module) => module.name).sort()).toEqual(exportedEntries().sort());
    expect(
      run.modules.filter((module) => !module.children?.length).map((module) => module.name),
    ).toEqual([]);
  });
});
