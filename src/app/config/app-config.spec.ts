import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_FRAMEWORKS, loadAppConfig } from './app-config';

const SERVICE_PACKAGE = JSON.parse(
  readFileSync(join(__dirname, '../../../package.json'), 'utf8'),
) as { version: string };

const base = { AUTH_JWT_SECRET: 'secret' };
/** What Kubernetes sets in every pod. */
const inPod = { ...base, KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };

describe('loadAppConfig', () => {
  it('runs the native agent when AGENT_FRAMEWORK is unset or blank', () => {
    expect(loadAppConfig(base).agentFramework).toBe('native');
    expect(loadAppConfig({ ...base, AGENT_FRAMEWORK: '' }).agentFramework).toBe('native');
  });

  it("labels the reference agent with AGENT_VERSION, else the service's package version", () => {
    expect(loadAppConfig({ ...base, AGENT_VERSION: '2026.11.28-a1b2c3d' }).agentVersion).toBe(
      '2026.11.28-a1b2c3d',
    );
    expect(loadAppConfig(base).agentVersion).toBe(SERVICE_PACKAGE.version);
    expect(loadAppConfig({ ...base, AGENT_VERSION: '' }).agentVersion).toBe(
      SERVICE_PACKAGE.version,
    );
  });

  it('refuses an AGENT_VERSION over 128 characters, naming the variable', () => {
    expect(() => loadAppConfig({ ...base, AGENT_VERSION: 'v'.repeat(129) })).toThrow(
      /AGENT_VERSION/,
    );
  });

  it('signals through Redis with REDIS_URL, else PostgreSQL with a PostgreSQL DATABASE_URL, else in process', () => {
    const postgres = { DATABASE_URL: 'postgres://agents@db:5432/agents' };
    expect(loadAppConfig({ ...base, ...postgres, REDIS_URL: 'redis://cache:6379' }).signals).toBe(
      'redis',
    );
    expect(loadAppConfig({ ...base, ...postgres }).signals).toBe('postgres');
    expect(loadAppConfig(base).signals).toBe('memory');
  });

  it('keeps an explicit SIGNALS, and refuses one without its backend or a bad value, naming the variable', () => {
    const both = {
      DATABASE_URL: 'postgres://agents@db:5432/agents',
      REDIS_URL: 'redis://cache:6379',
    };
    expect(loadAppConfig({ ...base, ...both, SIGNALS: 'postgres' }).signals).toBe('postgres');
    expect(loadAppConfig({ ...base, ...both, SIGNALS: 'memory' }).signals).toBe('memory');
    expect(() => loadAppConfig({ ...base, SIGNALS: 'postgres' })).toThrow(
      /^SIGNALS=postgres needs a PostgreSQL DATABASE_URL/,
    );
    expect(() => loadAppConfig({ ...base, SIGNALS: 'redis' })).toThrow(
      /^SIGNALS=redis needs REDIS_URL/,
    );
    expect(() => loadAppConfig({ ...base, SIGNALS: 'kafka' })).toThrow(/SIGNALS/);
  });

  it.each(AGENT_FRAMEWORKS)('accepts AGENT_FRAMEWORK=%s', (framework) => {
    expect(loadAppConfig({ ...base, AGENT_FRAMEWORK: framework }).agentFramework).toBe(framework);
  });

  it('refuses any other AGENT_FRAMEWORK, naming the variable and the values it takes', () => {
    expect(() => loadAppConfig({ ...base, AGENT_FRAMEWORK: 'crewai' })).toThrow(
      /AGENT_FRAMEWORK.*native.*ai-sdk.*langgraph.*openai-agents/,
    );
  });

  it('refuses production with neither AUTH_JWT_SECRET nor AUTH_JWKS_URL, naming both', () => {
    expect(() => loadAppConfig({ NODE_ENV: 'production' })).toThrow(
      /AUTH_JWT_SECRET or AUTH_JWKS_URL is required/,
    );
  });

  it('starts in production with a JWKS alone, and makes no dev token there', () => {
    const config = loadAppConfig({
      NODE_ENV: 'production',
      AUTH_JWKS_URL: 'https://idp.example.test/jwks.json',
      AUTH_ISSUER: 'https://idp.example.test',
    });
    expect(config).toMatchObject({
      authJwksUrl: 'https://idp.example.test/jwks.json',
      authIssuer: 'https://idp.example.test',
      authSecretGenerated: false,
    });
  });

  it('refuses an AUTH_JWKS_URL that is not a URL, naming it', () => {
    expect(() => loadAppConfig({ ...base, AUTH_JWKS_URL: 'not a url' })).toThrow(/AUTH_JWKS_URL/);
  });

  it('makes a dev token only when AUTH_DEV_TOKEN=true asks for one, and refuses that in production', () => {
    expect(loadAppConfig({}).authDevToken).toBe(false);
    expect(loadAppConfig({ AUTH_DEV_TOKEN: 'true' }).authDevToken).toBe(true);
    expect(() =>
      loadAppConfig({ ...base, NODE_ENV: 'production', AUTH_DEV_TOKEN: 'true' }),
    ).toThrow(/AUTH_DEV_TOKEN=true is refused when NODE_ENV=production/);
    expect(() => loadAppConfig({ AUTH_DEV_TOKEN: 'yes' })).toThrow(/AUTH_DEV_TOKEN/);
  });

  it('serves the console by default outside production and not in production', () => {
    expect(loadAppConfig(base).consoleEnabled).toBe(true);
    expect(loadAppConfig({ ...base, NODE_ENV: 'production' }).consoleEnabled).toBe(false);
  });

  it('follows CONSOLE_ENABLED when it is set, in production too', () => {
    expect(
      loadAppConfig({ ...base, NODE_ENV: 'production', CONSOLE_ENABLED: 'true' }).consoleEnabled,
    ).toBe(true);
    expect(loadAppConfig({ ...base, CONSOLE_ENABLED: 'false' }).consoleEnabled).toBe(false);
    expect(loadAppConfig({ ...base, CONSOLE_ENABLED: '' }).consoleEnabled).toBe(true);
  });

  it('refuses a CONSOLE_ENABLED other than true or false, naming the variable', () => {
    expect(() => loadAppConfig({ ...base, CONSOLE_ENABLED: 'yes' })).toThrow(/CONSOLE_ENABLED/);
  });

  it('sets the per-user limits to their defaults when unset', () => {
    expect(loadAppConfig(base).limits).toEqual({
      maxRunsPerUser: 10,
      maxMessagesPerRequest: 100,
      maxHistoryMessages: 10_000,
      maxThreadBytes: 8_388_608,
      ratePerMinute: 6_000,
    });
  });

  it('turns a limit off with 0', () => {
    expect(
      loadAppConfig({ ...base, MAX_RUNS_PER_USER: '0', RATE_LIMIT_PER_MINUTE: '0' }).limits,
    ).toMatchObject({ maxRunsPerUser: 0, ratePerMinute: 0 });
  });

  it.each([
    'MAX_RUNS_PER_USER',
    'MAX_MESSAGES_PER_REQUEST',
    'MAX_HISTORY_MESSAGES',
    'MAX_THREAD_BYTES',
    'RATE_LIMIT_PER_MINUTE',
  ])('refuses a %s that is not a whole number ≥ 0, naming it', (name) => {
    expect(() => loadAppConfig({ ...base, [name]: '-1' })).toThrow(new RegExp(name));
    expect(() => loadAppConfig({ ...base, [name]: 'many' })).toThrow(new RegExp(name));
  });

  it('sets the HTTP timeouts, the token age and the metrics port to their defaults when unset', () => {
    const config = loadAppConfig(base);
    expect(config.http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
    expect(config.authMaxTokenAgeS).toBe(86_400);
    expect(config.metricsPort).toBeUndefined();
  });

  it('reads METRICS_PORT, AUTH_MAX_TOKEN_AGE_S and the HTTP timeouts when set', () => {
    const config = loadAppConfig({
      ...base,
      METRICS_PORT: '9464',
      AUTH_MAX_TOKEN_AGE_S: '3600',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEPALIVE_TIMEOUT_MS: '7000',
    });
    expect(config).toMatchObject({
      metricsPort: 9464,
      authMaxTokenAgeS: 3600,
      http: { headersTimeoutMs: 2000, requestTimeoutMs: 4000, keepAliveTimeoutMs: 7000 },
    });
  });

  it.each([
    'METRICS_PORT',
    'AUTH_MAX_TOKEN_AGE_S',
    'HTTP_HEADERS_TIMEOUT_MS',
    'HTTP_REQUEST_TIMEOUT_MS',
    'HTTP_KEEPALIVE_TIMEOUT_MS',
  ])('refuses a %s that is not a whole number ≥ 1, naming it', (name) => {
    expect(() => loadAppConfig({ ...base, [name]: '0' })).toThrow(new RegExp(name));
    expect(() => loadAppConfig({ ...base, [name]: 'soon' })).toThrow(new RegExp(name));
  });

  it('refuses a METRICS_PORT beyond 65535 or equal to PORT, naming it', () => {
    expect(() => loadAppConfig({ ...base, METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadAppConfig({ ...base, PORT: '3000', METRICS_PORT: '3000' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
  });

  it('refuses a headers timeout longer than the request timeout, naming both', () => {
    expect(() =>
      loadAppConfig({ ...base, HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS.*HTTP_REQUEST_TIMEOUT_MS/);
  });
  it('leaves the pod deletion cost off unless POD_DELETION_COST=true', () => {
    expect(loadAppConfig(base).podDeletionCost).toBeUndefined();
    expect(
      loadAppConfig({ ...base, POD_DELETION_COST: 'false', POD_NAME: 'pod-a' }).podDeletionCost,
    ).toBeUndefined();
  });

  it('takes the pod from POD_NAME and POD_NAMESPACE when POD_DELETION_COST=true', () => {
    expect(
      loadAppConfig({
        ...inPod,
        POD_DELETION_COST: 'true',
        POD_NAME: 'pod-a',
        POD_NAMESPACE: 'agents',
      }).podDeletionCost,
    ).toEqual({
      podName: 'pod-a',
      podNamespace: 'agents',
    });
    expect(
      loadAppConfig({ ...inPod, POD_DELETION_COST: 'true', POD_NAME: 'pod-a' }).podDeletionCost,
    ).toEqual({ podName: 'pod-a' });
  });

  it('refuses POD_DELETION_COST=true outside a pod, naming the variables the Kubernetes API is found by', () => {
    expect(() => loadAppConfig({ ...base, POD_DELETION_COST: 'true', POD_NAME: 'pod-a' })).toThrow(
      /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT/,
    );
  });

  it('refuses a POD_DELETION_COST other than true or false, naming it', () => {
    expect(() => loadAppConfig({ ...base, POD_DELETION_COST: 'yes' })).toThrow(/POD_DELETION_COST/);
  });

  it('refuses POD_DELETION_COST=true without POD_NAME, naming it', () => {
    expect(() => loadAppConfig({ ...inPod, POD_DELETION_COST: 'true' })).toThrow(/needs POD_NAME/);
  });

  it('reads REDIS_CLUSTER, false by default, and refuses it without REDIS_URL', () => {
    expect(loadAppConfig(base).redisCluster).toBe(false);
    expect(
      loadAppConfig({ ...base, REDIS_URL: 'redis://node-1:6379', REDIS_CLUSTER: 'true' }),
    ).toMatchObject({
      redisUrl: 'redis://node-1:6379',
      redisCluster: true,
    });
    expect(() => loadAppConfig({ ...base, REDIS_CLUSTER: 'true' })).toThrow(
      /REDIS_CLUSTER=true needs REDIS_URL/,
    );
    expect(() =>
      loadAppConfig({ ...base, REDIS_URL: 'redis://node-1:6379', REDIS_CLUSTER: 'yes' }),
    ).toThrow(/REDIS_CLUSTER/);
  });
});
