/** Real PostgreSQL, Redis and nginx servers on loopback for test suites and benchmarks (dev tooling, not the library). */
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
export { REPO_ROOT } from './repo-root';
export { ensureNodeRuntime, type NodeMajor } from './node-runtimes';
export { ensurePeerSet, PEER_SET_RESOLVER, peerSetJestEnv, type PeerVersions } from './peer-set';
export { OLDEST_PEERS } from './oldest-peers';
