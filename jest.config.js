/**
 * Unit specs live beside the code (the library's in its package, the tools' in `tools/`, the
 * console page's logic in `console/`) and need no server; integration specs (`*.integration.spec.ts`)
 * start PostgreSQL, Redis or a process; end-to-end suites spawn the built service (see `pretest`).
 * Every project only transpiles (ts-jest with isolatedModules): `pretest` checks the types once.
 */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.transpile.json' }];

/**
 * The shared dev-only workspace, from its sources (its `dist` is for the built tools). The
 * library's relative imports name the files they load once built (`./x.js`, `./x.cjs`): from
 * the sources those are `./x.ts` and `./x.cts`. A package's own `./x.cjs` is still found.
 */
const moduleNameMapper = {
  '^dev-services$': '<rootDir>/packages/dev-services/src/index.ts',
  '^(\\.{1,2}/.*)\\.js$': '$1',
  '^(\\.{1,2}/.*)\\.cjs$': ['$1.cts', '$1.cjs'],
};

/**
 * Installs the local PostgreSQL/Redis/nginx/Chromium packages and promtool once, before any
 * worker (see the file). Jest runs a project's globalSetup only when a test of that project is
 * selected, so `--selectProjects unit` installs nothing.
 */
const globalSetup = '<rootDir>/test/support/global-setup.ts';

/** Where specs beside the code live. */
const SPEC_ROOTS = [
  '<rootDir>/packages/*/src/**',
  '<rootDir>/src/**',
  '<rootDir>/tools/**',
  '<rootDir>/console/**',
];

/** The behaviour suites of one service instance; they run on SQLite and on PostgreSQL. */
const SINGLE_INSTANCE_SUITES = [
  'ag-ui-client',
  'approval',
  'auth',
  'cancel',
  'crash',
  'input',
  'idempotent-runs',
  'openai-model',
  'shutdown',
  'shutdown-at-scale',
  'ai-sdk-agent',
  'langgraph-agent',
  'openai-agents-agent',
  'hostile-input',
];

/** The multi-instance suites; they run with Redis and again on PostgreSQL alone (`SIGNALS=postgres`). */
const MULTI_INSTANCE_SUITES = ['multi-instance', 'handover', 'backend-faults'];

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  // End-to-end tests spawn services and wait on conditions with their own deadlines.
  testTimeout: 120000,
  // Built output holds copies of the sources: never collect tests or modules from it.
  modulePathIgnorePatterns: [
    '<rootDir>/dist',
    '<rootDir>/dist-tools',
    '<rootDir>/packages/.*/dist',
  ],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: SPEC_ROOTS.map((root) => `${root}/*.spec.ts`),
      testPathIgnorePatterns: ['/node_modules/', '\\.integration\\.spec\\.ts$'],
      moduleNameMapper,
      transform: { '^.+\\.c?ts$': tsJest },
    },
    {
      // Specs beside the code that start PostgreSQL, Redis or a process.
      displayName: 'integration',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: SPEC_ROOTS.map((root) => `${root}/*.integration.spec.ts`),
      globalSetup,
      moduleNameMapper,
      transform: { '^.+\\.c?ts$': tsJest },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup,
      moduleNameMapper,
      transform: { '^.+\\.c?ts$': tsJest },
    },
    {
      // The single-instance behaviour suites again, with the service on PostgreSQL.
      displayName: 'e2e-postgres',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: SINGLE_INSTANCE_SUITES.map((name) => `<rootDir>/test/${name}.e2e-spec.ts`),
      setupFilesAfterEnv: ['<rootDir>/test/support/postgres-store.setup.ts'],
      globalSetup,
      moduleNameMapper,
      transform: { '^.+\\.c?ts$': tsJest },
    },
    {
      // The multi-instance suites again, with signals through PostgreSQL alone: no Redis started.
      displayName: 'e2e-postgres-signals',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: MULTI_INSTANCE_SUITES.map((name) => `<rootDir>/test/${name}.e2e-spec.ts`),
      setupFilesAfterEnv: ['<rootDir>/test/support/postgres-signals.setup.ts'],
      globalSetup,
      moduleNameMapper,
      transform: { '^.+\\.c?ts$': tsJest },
    },
  ],
};
