import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type IConfigFile,
} from '@microsoft/api-extractor';

/**
 * The library's public API, as API Extractor reports it: one `api/<entry>.api.md` per entry
 * point of its `package.json` `exports`, made from the built declarations (`npm run build`
 * first). `--local` writes the reports; without it a report that differs from the API fails,
 * so a change to the public API is a visible diff in review.
 *
 * @example
 * npm run api:report   // after changing the API on purpose: rewrites the reports
 * npm run api:check    // in `npm test`: fails when the API and its reports differ
 */
const PACKAGE_DIR = resolve(process.cwd(), 'packages/nest-agent-graceful-shutdown');
const REPORT_DIR = join(PACKAGE_DIR, 'api');
const local = process.argv.includes('--local');

interface Entry {
  /** `index` for the root, else the subpath (`ai-sdk`). */
  name: string;
  /** The built declaration file of the entry. */
  types: string;
}

/** Each entry's ES module declarations: the CommonJS build declares the same API. */
function entries(): Entry[] {
  const { exports } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { import?: { types?: string } }>;
  };
  return Object.entries(exports).flatMap(([path, target]) =>
    typeof target === 'object' && target.import?.types
      ? [
          {
            name: path === '.' ? 'index' : path.replace(/^\.\//, '').replace(/\//g, '-'),
            types: join(PACKAGE_DIR, target.import.types),
          },
        ]
      : [],
  );
}

function configOf(entry: Entry, tempDir: string): ExtractorConfig {
  const configObject: IConfigFile = {
    projectFolder: PACKAGE_DIR,
    mainEntryPointFilePath: entry.types,
    compiler: { tsconfigFilePath: join(PACKAGE_DIR, 'tsconfig.build.json') },
    apiReport: {
      enabled: true,
      reportFolder: REPORT_DIR,
      reportTempFolder: tempDir,
      reportFileName: `${entry.name}.api.md`,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      // The report is the check; what API Extractor would advise besides (release tags, TSDoc syntax) is not.
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
      extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  };
  return ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: join(PACKAGE_DIR, 'api-extractor.json'),
    packageJsonFullPath: join(PACKAGE_DIR, 'package.json'),
  });
}

function main(): void {
  const all = entries();
  if (local) mkdirSync(REPORT_DIR, { recursive: true });
  const tempDir = mkdtempSync(join(tmpdir(), 'api-report-'));
  const changed: string[] = [];
  try {
    const first = configOf(all[0], tempDir);
    // One compiler program for every entry: each entry alone would parse the package again.
    const compilerState = CompilerState.create(first, {
      additionalEntryPoints: all.map((entry) => entry.types),
    });
    for (const entry of all) {
      const result = Extractor.invoke(configOf(entry, tempDir), {
        localBuild: local,
        compilerState,
        messageCallback: (message) =>
          void (message.handled = message.logLevel === ExtractorLogLevel.None),
      });
      if (result.apiReportChanged) changed.push(entry.name);
      if (result.errorCount > 0)
        throw new Error(
          `API Extractor failed on the ${entry.name} entry (${result.errorCount} errors)`,
        );
    }
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
  if (changed.length && !local) {
    process.stderr.write(
      `the public API differs from its report for: ${changed.join(', ')}\n` +
        'if the change is meant, run `npm run api:report` and commit packages/nest-agent-graceful-shutdown/api/; else undo the change\n',
    );
    process.exitCode = 1;
    return;
  }
  process.stdout.write(
    `${local ? 'wrote' : 'checked'} the API reports of ${all.length} entry points${changed.length ? ` (changed: ${changed.join(', ')})` : ''}\n`,
  );
}

main();
