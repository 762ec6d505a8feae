/**
 * Real PostgreSQL, Redis and nginx servers on loopback, free ports, `waitFor` and a fake OpenAI
 * server: what the test suites, the library's specs and the benchmarks share (dev-only, never
 * published).
 */
export {
  chromiumBinary,
  ensureLocalServicePackages,
  findChromium,
  findNginx,
  findPostgresBinDir,
  findRedisServer,
  installDebianPackages,
  nginxBinary,
  postgresBinDir,
  redisServerBinary,
} from './debian-packages';
export { NginxServer, type NginxServerOptions } from './nginx-server';
export { freePort } from './free-port';
export { ensureKubernetesTools, type KubernetesTools } from './kubernetes-tools';
export { ensurePromtool } from './promtool';
export { PostgresServer, type PostgresServerOptions } from './postgres-server';
export { RedisServer, type RedisServerOptions } from './redis-server';
export { RedisCluster, type RedisClusterOptions } from './redis-cluster';
export { redisCli, redisCliBinary } from './redis-cli';
export { REPO_ROOT } from './repo-root';
export { ensureNodeRuntime, run, type NodeMajor, type RunOptions } from './node-runtimes';
export { findExecutable } from './executables';
export { ensurePeerSet, PEER_SET_RESOLVER, peerSetJestEnv, type PeerVersions } from './peer-set';
export { OLDEST_PEERS } from './oldest-peers';
export { waitFor } from './wait-for';
export {
  completionChunk,
  FakeOpenAiServer,
  textChunks,
  toolCallChunks,
  usageChunk,
  type ChunkUsage,
  type ReceivedRequest,
  type Scripted,
  type ScriptedChunk,
} from './fake-openai-server';
export { ChildService, type ChildExit, type ChildServiceOptions } from './child-service';
