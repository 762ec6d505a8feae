/** Real PostgreSQL and Redis servers on loopback for test suites and benchmarks (dev tooling, not the library). */
export { ensureLocalServicePackages, findPostgresBinDir, findRedisServer, postgresBinDir, redisServerBinary } from './debian-packages';
export { freePort } from './free-port';
export { PostgresServer, type PostgresServerOptions } from './postgres-server';
export { RedisServer, type RedisServerOptions } from './redis-server';
