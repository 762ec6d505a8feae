import { AGENT_FRAMEWORKS, loadAppConfig } from './app-config';

const base = { AUTH_JWT_SECRET: 'secret' };

describe('loadAppConfig', () => {
  it('runs the native agent when AGENT_FRAMEWORK is unset or blank', () => {
    expect(loadAppConfig(base).agentFramework).toBe('native');
    expect(loadAppConfig({ ...base, AGENT_FRAMEWORK: '' }).agentFramework).toBe('native');
  });

  it.each(AGENT_FRAMEWORKS)('accepts AGENT_FRAMEWORK=%s', (framework) => {
    expect(loadAppConfig({ ...base, AGENT_FRAMEWORK: framework }).agentFramework).toBe(framework);
  });

  it('refuses any other AGENT_FRAMEWORK, naming the variable and the values it takes', () => {
    expect(() => loadAppConfig({ ...base, AGENT_FRAMEWORK: 'crewai' })).toThrow(/AGENT_FRAMEWORK.*native.*ai-sdk.*langgraph.*openai-agents/);
  });

  it('refuses production with neither AUTH_JWT_SECRET nor AUTH_JWKS_URL, naming both', () => {
    expect(() => loadAppConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_JWT_SECRET or AUTH_JWKS_URL is required/);
  });

  it('starts in production with a JWKS alone, and makes no dev token there', () => {
    const config = loadAppConfig({ NODE_ENV: 'production', AUTH_JWKS_URL: 'https://idp.example.test/jwks.json', AUTH_ISSUER: 'https://idp.example.test' });
    expect(config).toMatchObject({ authJwksUrl: 'https://idp.example.test/jwks.json', authIssuer: 'https://idp.example.test', authSecretGenerated: false });
  });

  it('refuses an AUTH_JWKS_URL that is not a URL, naming it', () => {
    expect(() => loadAppConfig({ ...base, AUTH_JWKS_URL: 'not a url' })).toThrow(/AUTH_JWKS_URL/);
  });

  it('serves the console by default outside production and not in production', () => {
    expect(loadAppConfig(base).consoleEnabled).toBe(true);
    expect(loadAppConfig({ ...base, NODE_ENV: 'production' }).consoleEnabled).toBe(false);
  });

  it('follows CONSOLE_ENABLED when it is set, in production too', () => {
    expect(loadAppConfig({ ...base, NODE_ENV: 'production', CONSOLE_ENABLED: 'true' }).consoleEnabled).toBe(true);
    expect(loadAppConfig({ ...base, CONSOLE_ENABLED: 'false' }).consoleEnabled).toBe(false);
    expect(loadAppConfig({ ...base, CONSOLE_ENABLED: '' }).consoleEnabled).toBe(true);
  });

  it('refuses a CONSOLE_ENABLED other than true or false, naming the variable', () => {
    expect(() => loadAppConfig({ ...base, CONSOLE_ENABLED: 'yes' })).toThrow(/CONSOLE_ENABLED/);
  });

  it('sets the per-user limits to their defaults when unset', () => {
    expect(loadAppConfig(base).limits).toEqual({ maxRunsPerUser: 10, maxMessagesPerRequest: 100, maxHistoryMessages: 10_000, ratePerMinute: 6_000 });
  });

  it('turns a limit off with 0', () => {
    expect(loadAppConfig({ ...base, MAX_RUNS_PER_USER: '0', RATE_LIMIT_PER_MINUTE: '0' }).limits).toMatchObject({ maxRunsPerUser: 0, ratePerMinute: 0 });
  });

  it.each(['MAX_RUNS_PER_USER', 'MAX_MESSAGES_PER_REQUEST', 'MAX_HISTORY_MESSAGES', 'RATE_LIMIT_PER_MINUTE'])(
    'refuses a %s that is not a whole number ≥ 0, naming it',
    (name) => {
      expect(() => loadAppConfig({ ...base, [name]: '-1' })).toThrow(new RegExp(name));
      expect(() => loadAppConfig({ ...base, [name]: 'many' })).toThrow(new RegExp(name));
    },
  );
});
