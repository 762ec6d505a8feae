// `nest-agent-graceful-shutdown/redis`: signals and run event logs across instances through Redis (optional peer `ioredis`).
export { RedisSignalBus, type RedisSignalBusOptions } from './redis-signal-bus.js';
export { RedisRunEventLog, type RedisRunEventLogOptions } from './redis-run-event-log.js';
export type { RedisClient, RedisConnectionOptions } from './redis-connection.js';
