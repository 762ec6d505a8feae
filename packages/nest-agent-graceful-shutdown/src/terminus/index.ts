// `nest-agent-graceful-shutdown/terminus`: health indicators for `@nestjs/terminus` (optional peer).
export { ShutdownHealthIndicator } from './shutdown.health-indicator.js';
export { SignalBusHealthIndicator } from './signal-bus.health-indicator.js';
