import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { inClusterEndpoint } from '../kubernetes/in-cluster-api';

/** The service's own package version (its `package.json`, three folders up from this file in `src/` and in `dist/`). */
const SERVICE_VERSION = (
  JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }
).version;

/** The frameworks the reference agent can be written with (`AGENT_FRAMEWORK`). */
export const AGENT_FRAMEWORKS = ['native', 'ai-sdk', 'langgraph', 'openai-agents'] as const;
export type AgentFramework = (typeof AGENT_FRAMEWORKS)[number];

/** The cross-instance signal buses the service can use (`SIGNALS`). */
export const SIGNAL_TRANSPORTS = ['redis', 'postgres', 'memory'] as const;
export type SignalTransport = (typeof SIGNAL_TRANSPORTS)[number];

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

const EnvSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: int(3000, 0).pipe(z.number().max(65535)),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z.string().url().optional(),
  REDIS_CLUSTER: z.enum(['true', 'false']).default('false'),
  AUTH_JWT_SECRET: z.string().min(1).optional(),
  AUTH_DEV_TOKEN: z.enum(['true', 'false']).default('false'),
  AUTH_JWKS_URL: z.string().url().optional(),
  AUTH_ISSUER: z.string().min(1).optional(),
  AUTH_AUDIENCE: z.string().min(1).optional(),
  SHUTDOWN_DRAIN_TIMEOUT_MS: int(20_000),
  SHUTDOWN_TIMEOUT_MS: int(25_000, 1),
  LEASE_TTL_MS: int(15_000, 300),
  MODEL_PROVIDER: z.enum(['demo', 'openai']).default('demo'),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  MODEL_NAME: z.string().optional(),
  MODEL_MAX_RETRIES: int(2),
  MODEL_TIMEOUT_MS: int(60_000, 1),
  MODEL_STEP_MS: int(30_000, 1),
  MODEL_TEMPERATURE: z.coerce.number().min(0).max(2).optional(),
  SYSTEM_PROMPT: z.string().optional(),
  DEMO_STEPS: int(3, 1),
  DEMO_REASONING_MS: int(300),
  DEMO_TOOL_MS: int(300),
  DEMO_REQUIRE_APPROVAL: z.enum(['true', 'false']).default('false'),
  BODY_LIMIT: z.string().default('1mb'),
  PARTIAL_OUTPUT: z.enum(['save', 'discard']).default('save'),
  SSE_HEARTBEAT_MS: int(15_000),
  AGENT_FRAMEWORK: z.enum(AGENT_FRAMEWORKS).default('native'),
  AGENT_VERSION: z.string().trim().min(1).max(128).optional(),
  STREAM_RETENTION_MS: int(3_600_000, 1),
  RUN_ON_DISCONNECT: z.enum(['continue', 'cancel']).default('continue'),
  RESUME_MODE: z.enum(['client', 'auto']).optional(),
  SIGNALS: z.enum(SIGNAL_TRANSPORTS).optional(),
  METRICS_ENABLED: z.enum(['true', 'false']).default('true'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('agent-service'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
  CONSOLE_ENABLED: z.enum(['true', 'false']).optional(),
  MAX_RUNS_PER_USER: int(10),
  MAX_MESSAGES_PER_REQUEST: int(100),
  MAX_HISTORY_MESSAGES: int(10_000),
  MAX_THREAD_BYTES: int(8_388_608),
  RATE_LIMIT_PER_MINUTE: int(6_000),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  AUTH_MAX_TOKEN_AGE_S: int(86_400, 1),
  HTTP_HEADERS_TIMEOUT_MS: int(10_000, 1),
  HTTP_REQUEST_TIMEOUT_MS: int(30_000, 1),
  HTTP_KEEPALIVE_TIMEOUT_MS: int(5_000, 1),
  POD_DELETION_COST: z.enum(['true', 'false']).default('false'),
  POD_NAME: z.string().min(1).optional(),
  POD_NAMESPACE: z.string().min(1).optional(),
});

/** The names of the environment variables the service reads; deployment manifests should set no others. */
export const APP_ENV_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

/** The reference service's configuration, from the environment (see the README's table). */
export interface AppConfig {
  nodeEnv: string;
  port: number;
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  /** The cross-instance signal bus: Redis, PostgreSQL `LISTEN`/`NOTIFY`, or in-process (one instance). */
  signals: SignalTransport;
  /** `redisUrl` names a seed node of a Redis Cluster. */
  redisCluster: boolean;
  /** HS256 secret of bearer tokens; made at random for this boot when unset outside production. */
  authJwtSecret: string;
  /** True when `authJwtSecret` was made at boot outside production. */
  authSecretGenerated: boolean;
  /** Serve (to a direct local request) and log a dev token: asked for with `AUTH_DEV_TOKEN=true`, never in production. */
  authDevToken: boolean;
  /** The OIDC provider's key set: RS256 and ES256 tokens are checked against it. */
  authJwksUrl?: string;
  /** The `iss` a JWKS token must carry, when set. */
  authIssuer?: string;
  /** An `aud` a JWKS token must carry, when set. */
  authAudience?: string;
  drainTimeoutMs: number;
  shutdownTimeoutMs: number;
  /** How long a run's lease on its thread lasts without renewal: a dead instance's threads resume elsewhere after it. */
  leaseTtlMs: number;
  modelProvider: 'demo' | 'openai';
  /** The OpenAI-compatible model, when `modelProvider` is `openai`. */
  openai?: {
    baseUrl?: string;
    apiKey?: string;
    model: string;
    maxRetries: number;
    timeoutMs: number;
    expectedDurationMs: number;
    temperature?: number;
  };
  /** Replaces the reference agent's system prompt. */
  systemPrompt?: string;
  demo: { steps: number; reasoningMs: number; toolMs: number; requireApproval: boolean };
  bodyLimit: string;
  /** What to keep of a model answer cut off by a stop while it streams. */
  partialOutput: 'save' | 'discard';
  /** Idle time of an event stream before a heartbeat comment line, in milliseconds (0: none). */
  sseHeartbeatMs: number;
  /** Which framework runs the reference agent. */
  agentFramework: AgentFramework;
  /** The reference agent's `version` label, recorded with every run attempt: `AGENT_VERSION`, else the service's package version. */
  agentVersion: string;
  /** How long a run's event log stays joinable after the run ends, in milliseconds. */
  streamRetentionMs: number;
  /** What a client disconnect does to its run. */
  runOnDisconnect: 'continue' | 'cancel';
  /** Who continues an interrupted run; unset: the module decides (`auto` with PostgreSQL and a cross-instance bus, else `client`). */
  resumeMode?: 'client' | 'auto';
  /** Serve `GET /metrics` (Prometheus). */
  metricsEnabled: boolean;
  /** Where spans are exported (OTLP over HTTP); unset: no export. */
  otlpEndpoint?: string;
  /** `service.name` of the exported spans. */
  serviceName: string;
  /** The lowest log level written; `debug` and `trace` may include message contents. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** Whether the console page is served at `/`; by default outside production only. */
  consoleEnabled: boolean;
  /** Per-user limits, each answered with 429 and `Retry-After` (413 for a thread's size); 0 turns one off. */
  limits: AppLimits;
  /** A port of its own for `GET /metrics`, which the API port then answers 404; unset: the API port serves it. */
  metricsPort?: number;
  /** The longest life of an HS256 token, `exp` after `iat` (or after now without `iat`), in seconds. @default 86400 */
  authMaxTokenAgeS: number;
  /** The HTTP server's timeouts: a request too slow to arrive gets 408. */
  http: HttpServerTimeouts;
  /** Keep this pod's `controller.kubernetes.io/pod-deletion-cost` close to its runs in flight; unset: off. */
  podDeletionCost?: PodIdentity;
}

/** The pod the service runs in (the downward API's `metadata.name` and `metadata.namespace`). */
export interface PodIdentity {
  podName: string;
  /** Unset: read from the service account's namespace file. */
  podNamespace?: string;
}

/** The HTTP server's timeouts (Node's `headersTimeout`, `requestTimeout`, `keepAliveTimeout`), in milliseconds. */
export interface HttpServerTimeouts {
  /** Time to receive a request's headers. @default 10000 */
  headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body; a response (an event stream) may last longer. @default 30000 */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open for a next request. @default 5000 */
  keepAliveTimeoutMs: number;
}

/** The per-user limits of the service (see the README's table); 0 turns one off. */
export interface AppLimits {
  /** Concurrent active runs per user, across instances. @default 10 */
  maxRunsPerUser: number;
  /** New messages (not yet in the thread) one request may add. @default 100 */
  maxMessagesPerRequest: number;
  /** Messages a thread's history may reach through a request. @default 10000 */
  maxHistoryMessages: number;
  /** UTF-8 bytes of content and tool call arguments a thread's history may reach through a request. @default 8388608 (8 MiB) */
  maxThreadBytes: number;
  /** Requests per user per minute, every authenticated route together. @default 6000 */
  ratePerMinute: number;
}

/** Reads and checks the environment; throws an Error whose message says what to fix. */
export function loadAppConfig(env: NodeJS.ProcessEnv): AppConfig {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.AUTH_JWT_SECRET && !e.AUTH_JWKS_URL) {
    throw new Error(
      "AUTH_JWT_SECRET or AUTH_JWKS_URL is required when NODE_ENV=production: set AUTH_JWKS_URL to your identity provider's JWKS, or AUTH_JWT_SECRET to a long random string (e.g. `openssl rand -hex 32`)",
    );
  }
  if (e.NODE_ENV === 'production' && e.AUTH_DEV_TOKEN === 'true') {
    throw new Error(
      "AUTH_DEV_TOKEN=true is refused when NODE_ENV=production: a dev token is for a developer's own machine",
    );
  }
  if (e.SHUTDOWN_TIMEOUT_MS <= e.SHUTDOWN_DRAIN_TIMEOUT_MS) {
    throw new Error(
      'SHUTDOWN_TIMEOUT_MS must be greater than SHUTDOWN_DRAIN_TIMEOUT_MS: the difference is the time to save interrupted runs',
    );
  }
  if (e.MODEL_PROVIDER === 'openai' && !e.MODEL_NAME) {
    throw new Error(
      'MODEL_PROVIDER=openai needs MODEL_NAME (the model as your server knows it, e.g. gpt-4o-mini or llama3.1), and usually OPENAI_BASE_URL and OPENAI_API_KEY',
    );
  }
  if (e.REDIS_URL && !/^rediss?:\/\//.test(e.REDIS_URL)) {
    throw new Error(
      'REDIS_URL must be a redis:// or rediss:// URL; leave it unset for in-process signals (one instance)',
    );
  }
  if (e.REDIS_CLUSTER === 'true' && !e.REDIS_URL) {
    throw new Error(
      'REDIS_CLUSTER=true needs REDIS_URL, the redis:// URL of one node of the cluster',
    );
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new Error(
      'HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS: the headers are part of the request',
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new Error(
      'METRICS_PORT must differ from PORT; leave it unset to serve /metrics on the API port',
    );
  }
  if (e.POD_DELETION_COST === 'true' && !e.POD_NAME) {
    throw new Error(
      'POD_DELETION_COST=true needs POD_NAME, the pod to annotate: set it from the downward API (fieldRef metadata.name)',
    );
  }
  // The Kubernetes API is found as the updater will find it: refused here, before anything starts.
  if (e.POD_DELETION_COST === 'true') inClusterEndpoint(env);
  if (e.DATABASE_URL && !/^postgres(ql)?:\/\//.test(e.DATABASE_URL)) {
    throw new Error(
      'DATABASE_URL must be a postgres:// URL; leave it unset for the embedded SQLite store',
    );
  }
  const signals = signalTransport(e.SIGNALS, e.REDIS_URL, e.DATABASE_URL);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    signals,
    redisCluster: e.REDIS_CLUSTER === 'true',
    authJwtSecret: e.AUTH_JWT_SECRET ?? randomBytes(32).toString('hex'),
    // With a JWKS in production and no secret, HS256 tokens meet a random secret no one has: none verifies.
    authSecretGenerated: !e.AUTH_JWT_SECRET && e.NODE_ENV !== 'production',
    authDevToken: e.AUTH_DEV_TOKEN === 'true',
    authJwksUrl: e.AUTH_JWKS_URL,
    authIssuer: e.AUTH_ISSUER,
    authAudience: e.AUTH_AUDIENCE,
    drainTimeoutMs: e.SHUTDOWN_DRAIN_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    leaseTtlMs: e.LEASE_TTL_MS,
    modelProvider: e.MODEL_PROVIDER,
    openai:
      e.MODEL_PROVIDER === 'openai' && e.MODEL_NAME
        ? {
            baseUrl: e.OPENAI_BASE_URL,
            apiKey: e.OPENAI_API_KEY,
            model: e.MODEL_NAME,
            maxRetries: e.MODEL_MAX_RETRIES,
            timeoutMs: e.MODEL_TIMEOUT_MS,
            expectedDurationMs: e.MODEL_STEP_MS,
            temperature: e.MODEL_TEMPERATURE,
          }
        : undefined,
    systemPrompt: e.SYSTEM_PROMPT,
    demo: {
      steps: e.DEMO_STEPS,
      reasoningMs: e.DEMO_REASONING_MS,
      toolMs: e.DEMO_TOOL_MS,
      requireApproval: e.DEMO_REQUIRE_APPROVAL === 'true',
    },
    bodyLimit: e.BODY_LIMIT,
    partialOutput: e.PARTIAL_OUTPUT,
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    agentFramework: e.AGENT_FRAMEWORK,
    agentVersion: e.AGENT_VERSION ?? SERVICE_VERSION,
    streamRetentionMs: e.STREAM_RETENTION_MS,
    runOnDisconnect: e.RUN_ON_DISCONNECT,
    resumeMode: e.RESUME_MODE,
    metricsEnabled: e.METRICS_ENABLED === 'true',
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: e.OTEL_SERVICE_NAME,
    logLevel: e.LOG_LEVEL,
    consoleEnabled:
      e.CONSOLE_ENABLED === undefined ? e.NODE_ENV !== 'production' : e.CONSOLE_ENABLED === 'true',
    limits: {
      maxRunsPerUser: e.MAX_RUNS_PER_USER,
      maxMessagesPerRequest: e.MAX_MESSAGES_PER_REQUEST,
      maxHistoryMessages: e.MAX_HISTORY_MESSAGES,
      maxThreadBytes: e.MAX_THREAD_BYTES,
      ratePerMinute: e.RATE_LIMIT_PER_MINUTE,
    },
    metricsPort: e.METRICS_PORT,
    authMaxTokenAgeS: e.AUTH_MAX_TOKEN_AGE_S,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEPALIVE_TIMEOUT_MS,
    },
    podDeletionCost:
      e.POD_DELETION_COST === 'true' && e.POD_NAME
        ? { podName: e.POD_NAME, podNamespace: e.POD_NAMESPACE }
        : undefined,
  };
}

/** The `@nestjs/config` namespace the service reads its settings from. */
export const APP_CONFIG_KEY = 'app';

/**
 * `SIGNALS`, or its default: Redis with `REDIS_URL`, else PostgreSQL with a PostgreSQL
 * `DATABASE_URL`, else in-process. An explicit choice needs its backend.
 */
function signalTransport(
  chosen: SignalTransport | undefined,
  redisUrl: string | undefined,
  databaseUrl: string | undefined,
): SignalTransport {
  if (chosen === 'redis' && !redisUrl)
    throw new Error(
      'SIGNALS=redis needs REDIS_URL; set SIGNALS=postgres to signal through a PostgreSQL DATABASE_URL',
    );
  if (chosen === 'postgres' && !databaseUrl)
    throw new Error(
      'SIGNALS=postgres needs a PostgreSQL DATABASE_URL (postgres://…); the embedded SQLite store serves one instance: SIGNALS=memory',
    );
  return chosen ?? (redisUrl ? 'redis' : databaseUrl ? 'postgres' : 'memory');
}
