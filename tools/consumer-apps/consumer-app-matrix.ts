import { type NodeMajor, OLDEST_PEERS } from 'dev-services';

/** The oldest release of each named peer, the same floors the library's specs run against. */
function oldest(...names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, OLDEST_PEERS[name]]));
}

/** How one proof runs the app: its HTTP platform, its agent, its signal handling and its Node. */
export interface ConsumerMode {
  platform: 'express' | 'fastify';
  /** `native`: the library's own model and tool interfaces; `ai-sdk`: the `/ai-sdk` adapter against an OpenAI-compatible server. */
  agent: 'native' | 'ai-sdk';
  node: NodeMajor;
  /** The app also calls Nest's own `app.enableShutdownHooks()`. */
  shutdownHooks?: boolean;
}

/** One consumer app of the matrix: its fixture, the README install block it follows, and the exact versions it pins. */
export interface ConsumerApp {
  /** The fixture folder under `test/fixtures/consumer-apps/` (laid over `shared/`). */
  name: 'esm' | 'cjs';
  /** Which README install block the app runs: the block whose comment line names it. */
  readmeBlock: 'ESM' | 'CommonJS';
  packageType: 'module' | 'commonjs';
  store: 'sqlite' | 'postgres';
  /** Exact versions laid over the README's ranges (each must fall in the README's range) or added to them. */
  pins: Record<string, string>;
  /** What the app itself adds beyond the README line (its platforms, its AI SDK, its compiler). */
  extras: string[];
  /** The agent frameworks' packages the app adds last, after the proofs that it brings no SDK it does not use. */
  frameworks: string[];
  modes: ConsumerMode[];
}

/** The peers every consumer app loads (its HTTP platform's package is added per mode), each of which must be one module instance. */
export const APP_PEERS = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/typeorm',
  'typeorm',
  'rxjs',
  'zod',
  'ai',
  '@ai-sdk/openai',
  'nest-agent-graceful-shutdown',
];

/** The peers the frameworks entry (`frameworks/src/frameworks.ts`) loads, each of which must be one module instance. */
export const FRAMEWORK_PEERS = [
  '@langchain/core',
  '@langchain/langgraph',
  '@openai/agents',
  'openai',
  'zod',
  'ai',
  '@ai-sdk/openai',
  'nest-agent-graceful-shutdown',
];

/**
 * (a) An ESM app as `nest new` makes it today (`@nestjs/cli` 12, its `ts-esm` template: `"type":
 * "module"`, `nodenext`, `declaration: true`, strict), on the newest release of each package it uses.
 */
export const ESM_APP: ConsumerApp = {
  name: 'esm',
  readmeBlock: 'ESM',
  packageType: 'module',
  store: 'sqlite',
  pins: {
    '@nestjs/common': '12.5.1',
    '@nestjs/core': '12.5.1',
    '@nestjs/platform-express': '12.5.1',
    '@nestjs/platform-fastify': '12.5.0',
    '@nestjs/typeorm': '12.0.2',
    typeorm: '1.1.1',
    'better-sqlite3': '13.2.0',
    ai: '7.0.173',
    '@ai-sdk/openai': '4.0.118',
  },
  // `nest new` today: TypeScript ^6.0.2 (6.0.3 the newest 6.x) and @types/node ^24.
  extras: ['zod', 'typescript@6.0.3', '@types/node@24'],
  frameworks: [
    '@langchain/core@1.4.0',
    '@langchain/langgraph@1.7.3',
    '@openai/agents@0.20.0',
    'openai@7.57.0',
  ],
  modes: [
    { platform: 'express', agent: 'native', node: 24 },
    { platform: 'fastify', agent: 'native', node: 26, shutdownHooks: true },
    { platform: 'express', agent: 'ai-sdk', node: 26 },
  ],
};

/**
 * (b) A CommonJS app as Nest 11's `nest new` makes it (`@nestjs/schematics` 11.1, its `ts`
 * template: no `"type"`, so `module: nodenext` emits CommonJS; `declaration: true`, TypeScript 5),
 * on the oldest release of each package it uses. Nest 11.0.0 itself works;
 * `@nestjs/platform-fastify` 11.0.0 and 11.0.1 declare peers on Nest 10 (ERESOLVE), so 11.0.3
 * is the oldest Fastify platform that installs beside Nest 11.
 */
export const CJS_APP: ConsumerApp = {
  name: 'cjs',
  readmeBlock: 'CommonJS',
  packageType: 'commonjs',
  store: 'postgres',
  pins: {
    ...oldest(
      '@nestjs/common',
      '@nestjs/core',
      '@nestjs/platform-express',
      '@nestjs/typeorm',
      'typeorm',
      'ai',
    ),
    '@nestjs/platform-fastify': '11.0.3',
    '@ai-sdk/openai': '3.0.0',
  },
  extras: ['zod', 'typescript@5.9.3', '@types/node@22'],
  // The oldest framework releases the library supports; @openai/agents 0.14 asks for openai ^6.46.
  frameworks: [
    `@langchain/core@${OLDEST_PEERS['@langchain/core']}`,
    `@langchain/langgraph@${OLDEST_PEERS['@langchain/langgraph']}`,
    '@openai/agents@0.14.0',
    'openai@6',
  ],
  modes: [
    { platform: 'express', agent: 'native', node: 22 },
    { platform: 'fastify', agent: 'native', node: 24, shutdownHooks: true },
    { platform: 'fastify', agent: 'ai-sdk', node: 22 },
  ],
};

/** Both apps of the consumer matrix. */
export const CONSUMER_APPS: readonly ConsumerApp[] = [ESM_APP, CJS_APP];
