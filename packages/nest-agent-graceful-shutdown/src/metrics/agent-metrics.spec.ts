import { Registry } from 'prom-client';
import { RunControl } from '../agent/run-control.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import { InProcessSignalBus } from '../signals/in-process-signal-bus.js';
import { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import { AgentMetrics } from './agent-metrics.js';

describe('AgentMetrics', () => {
  const run = { threadId: 't', runId: 'r', agentName: 'a' };

  function setUp() {
    const runs = new InFlightRunRegistry();
    const telemetry = new AgentTelemetry(runs, new InProcessSignalBus());
    const registry = new Registry();
    return { runs, telemetry, registry, metrics: new AgentMetrics(telemetry, registry) };
  }

  const valueOf = async (registry: Registry, name: string, labels: Record<string, string> = {}) => {
    const metric = await registry.getSingleMetric(name)?.get();
    return metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
      ?.value;
  };

  it('adds its metrics to the host registry, counting what the telemetry reports', async () => {
    const { runs, telemetry, registry } = setUp();
    runs.register({ threadId: 't', runId: 'r', control: new RunControl() });
    telemetry.notify('runEnded', run, 'handed_over');
    telemetry.notify('runResumed', run, 'auto');
    telemetry.notify('leaseLost', 't');
    telemetry.notify('shutdownPhaseEnded', 'drain', 3);
    telemetry.notify('toolCallAbandoned', 't', 'r', 'slow_tool');

    expect(await valueOf(registry, 'agent_runs_in_flight')).toBe(1);
    expect(await valueOf(registry, 'agent_runs_total', { outcome: 'handed_over' })).toBe(1);
    expect(await valueOf(registry, 'agent_runs_total', { outcome: 'completed' })).toBe(0);
    expect(await valueOf(registry, 'agent_run_resumes_total', { mode: 'auto' })).toBe(1);
    expect(await valueOf(registry, 'agent_lease_lost_total')).toBe(1);
    expect(await valueOf(registry, 'agent_tool_calls_abandoned_total')).toBe(1);
    expect(await registry.metrics()).toContain(
      'agent_shutdown_duration_seconds_bucket{le="5",phase="drain"} 1',
    );
  });

  it('counts the tokens of model calls a stop cut off, by kind, starting at zero', async () => {
    const { telemetry, registry } = setUp();
    expect(await valueOf(registry, 'agent_model_tokens_discarded_total', { kind: 'output' })).toBe(
      0,
    );

    telemetry.notify('modelTokensDiscarded', run, { input: 1_200, output: 35, source: 'estimate' });
    telemetry.notify('modelTokensDiscarded', run, { input: 800, output: 5, source: 'estimate' });

    expect(
      await valueOf(registry, 'agent_model_tokens_discarded_total', {
        kind: 'input',
        source: 'estimate',
      }),
    ).toBe(2_000);
    expect(
      await valueOf(registry, 'agent_model_tokens_discarded_total', {
        kind: 'output',
        source: 'estimate',
      }),
    ).toBe(40);
  });

  it('leaves the registry and stops counting once disposed', async () => {
    const { telemetry, registry, metrics } = setUp();
    metrics.dispose();
    telemetry.notify('runEnded', run, 'completed');
    expect(registry.getMetricsAsArray()).toHaveLength(0);
  });
});
