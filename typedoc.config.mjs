// TypeDoc: the library's API reference, generated from its doc comments into docs/api/
// (git-ignored). One module per entry point of the package's `exports`, read from its
// package.json at each run, so a new subpath entry is documented without editing this file.
// Any warning fails the run; `test/api-docs.e2e-spec.ts` runs the same check with `--emit none`.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIBRARY = join(
  dirname(fileURLToPath(import.meta.url)),
  'packages/nest-agent-graceful-shutdown',
);

/**
 * The source file of each `exports` entry that has types: `./dist/esm/x/index.d.ts` (and its
 * CommonJS twin) is built from `./src/x/index.ts`. `./package.json` and other entries without
 * types are not code.
 */
export function libraryEntryPoints() {
  const { exports } = JSON.parse(readFileSync(join(LIBRARY, 'package.json'), 'utf8'));
  return Object.values(exports)
    .map((target) =>
      typeof target === 'object' && target !== null ? target.import?.types : undefined,
    )
    .filter((types) => typeof types === 'string')
    .map((types) =>
      join(LIBRARY, types.replace(/^\.\/dist\/esm\//, 'src/').replace(/\.d\.ts$/, '.ts')),
    );
}

/**
 * Types that exported declarations mention but no entry exports: the internals of the module's
 * own providers (their constructors' parameters), the session tables' entity classes and the
 * migration (reached as the `SESSION_ENTITIES` and `SESSION_MIGRATIONS` arrays), and shapes a
 * user reads inline. Once an entry exports one of them, TypeDoc names it here as unused: take
 * it off the list.
 */
const INTERNAL_TYPES = [
  // providers' internals
  'ResolvedShutdownOptions',
  'InFlightRunRegistry',
  'LeaseKeeper',
  'ResumeModeSetting',
  'QueueWatch',
  'GracefulShutdownHookDeps',
  'OwnedSignalBus',
  'OwnedRunEventLog',
  'Observation',
  // the session tables, through SESSION_ENTITIES and SESSION_MIGRATIONS
  'ThreadEntity',
  'RunEntity',
  'ToolCallEntity',
  'MessageEntity',
  'RunEventLogEntity',
  'RunEventEntity',
  'QueuedRunEntity',
  'CreateSessionTables1732147200000',
  // shapes read inline
  'ResolvedReconnectOptions',
  'RawReply',
  'RetryPolicy',
  'ResumeAnswer',
  'IncomingUserMessage',
  'Awaitable',
  'AnyAgent',
];

/** @type {Partial<import('typedoc').TypeDocOptions>} */
const config = {
  name: 'nest-agent-graceful-shutdown',
  entryPoints: libraryEntryPoints(),
  tsconfig: join(LIBRARY, 'tsconfig.build.json'),
  outputs: [{ name: 'html', path: 'docs/api' }],
  plugin: [join(dirname(fileURLToPath(import.meta.url)), 'tools/docs/typedoc-entry-names.mjs')],
  readme: 'none',
  // Source links would need a git remote to point at, which a clone without one (CI's) lacks.
  disableSources: true,
  excludePrivate: true,
  excludeInternal: true,
  // The compiler's own checks run in `npm run typecheck` and the build; this run only reads.
  skipErrorChecking: true,
  treatWarningsAsErrors: true,
  intentionallyNotExported: INTERNAL_TYPES,
  // Inherited doc comments of LangGraph's checkpoint saver link to its own types.
  externalSymbolLinkMappings: {
    '@langchain/langgraph-checkpoint': {
      '*': 'https://www.npmjs.com/package/@langchain/langgraph-checkpoint',
    },
  },
  validation: {
    notExported: true,
    invalidLink: true,
    rewrittenLink: true,
    notDocumented: false,
    unusedMergeModuleWith: true,
  },
};

export default config;
