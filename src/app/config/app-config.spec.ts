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
});
