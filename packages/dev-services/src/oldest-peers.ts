import type { PeerVersions } from './peer-set';

/**
 * The oldest release of each peer range the library declares (its package.json), which its
 * specs are run against beside the repository's newest ones (see test/node-versions.e2e-spec.ts).
 * Raise a floor here and in the library's peerDependencies together.
 */
export const OLDEST_PEERS: PeerVersions = {
  '@nestjs/common': '11.0.0',
  '@nestjs/core': '11.0.0',
  '@nestjs/platform-express': '11.0.0',
  '@nestjs/testing': '11.0.0',
  '@nestjs/typeorm': '11.0.0',
  '@nestjs/terminus': '11.0.0',
  typeorm: '0.3.20',
  ioredis: '5.4.0',
  'prom-client': '15.0.0',
  '@langchain/core': '1.3.4',
  '@langchain/langgraph': '1.7.0',
  ai: '6.0.0',
  openai: '6.0.0',
  '@openai/agents': '0.14.0',
  '@ag-ui/client': '1.0.0',
  rxjs: '7.8.0',
  'reflect-metadata': '0.2.0',
};
