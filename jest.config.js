/**
 * Unit specs live beside the code (the library's in its package, the tools' in `tools/`, the
 * console page's logic in `console/`);
 * end-to-end suites spawn the built service (see `pretest`).
 */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json' }];

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

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  // End-to-end tests spawn services and wait on conditions with their own deadlines.
  testTimeout: 120000,
  // Installs the local PostgreSQL/Redis packages once, before any worker (see the file).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // Built output holds copies of the sources: never collect tests or modules from it.
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/dist-tools', '<rootDir>/packages/.*/dist'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/packages/*/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts', '<rootDir>/tools/**/*.spec.ts', '<rootDir>/console/**/*.spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      // The single-instance behaviour suites again, with the service on PostgreSQL.
      displayName: 'e2e-postgres',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: SINGLE_INSTANCE_SUITES.map((name) => `<rootDir>/test/${name}.e2e-spec.ts`),
      setupFilesAfterEnv: ['<rootDir>/test/support/postgres-store.setup.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
  ],
};
