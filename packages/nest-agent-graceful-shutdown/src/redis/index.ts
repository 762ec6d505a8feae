// `nest-agent-graceful-shutdown/redis`: signals across instances through Redis (optional peer `ioredis`).
export { RedisSignalBus, type RedisSignalBusOptions } from './redis-signal-bus';
