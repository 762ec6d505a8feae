import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { parsePrometheusText, PrometheusTextError, sumBy, total } from './prometheus-text';

/** The text a real prom-client registry serves with the contract's metric names. */
async function exposition(): Promise<string> {
  const registry = new Registry();
  const inFlight = new Gauge({
    name: 'agent_runs_in_flight',
    help: 'runs executing on this instance',
    registers: [registry],
  });
  const runs = new Counter({
    name: 'agent_runs_total',
    help: 'runs ended',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const resumes = new Counter({
    name: 'agent_run_resumes_total',
    help: 'runs resumed',
    labelNames: ['mode'],
    registers: [registry],
  });
  const shutdown = new Histogram({
    name: 'agent_shutdown_duration_seconds',
    help: 'time per shutdown phase',
    labelNames: ['phase'],
    buckets: [0.1, 1, 10],
    registers: [registry],
  });
  const odd = new Gauge({
    name: 'odd_labels',
    help: 'a label value with every escape',
    labelNames: ['text'],
    registers: [registry],
  });
  inFlight.set(7);
  runs.inc({ outcome: 'completed' }, 12);
  runs.inc({ outcome: 'interrupted' }, 2);
  resumes.inc({ mode: 'client' }, 2);
  shutdown.observe({ phase: 'drain' }, 0.95);
  shutdown.observe({ phase: 'interrupt' }, 0.04);
  odd.set({ text: 'a "quoted" back\\slash\nnewline, {braces}' }, -1.5);
  return registry.metrics();
}

describe('parsePrometheusText', () => {
  it('reads a gauge of a real prom-client registry', async () => {
    const samples = parsePrometheusText(await exposition());
    expect(samples).toContainEqual({ name: 'agent_runs_in_flight', labels: {}, value: 7 });
  });

  it('reads counters by their labels', async () => {
    const samples = parsePrometheusText(await exposition());
    expect(sumBy(samples, 'agent_runs_total', 'outcome')).toEqual({
      completed: 12,
      interrupted: 2,
    });
    expect(sumBy(samples, 'agent_run_resumes_total', 'mode')).toEqual({ client: 2 });
  });

  it("reads a histogram's sums, counts and +Inf bucket", async () => {
    const samples = parsePrometheusText(await exposition());
    expect(sumBy(samples, 'agent_shutdown_duration_seconds_sum', 'phase')).toEqual({
      drain: 0.95,
      interrupt: 0.04,
    });
    expect(total(samples, 'agent_shutdown_duration_seconds_count')).toBe(2);
    expect(samples).toContainEqual({
      name: 'agent_shutdown_duration_seconds_bucket',
      labels: { le: '+Inf', phase: 'drain' },
      value: 1,
    });
  });

  it('unescapes quotes, backslashes and newlines in label values', async () => {
    const samples = parsePrometheusText(await exposition());
    expect(samples.find((s) => s.name === 'odd_labels')).toEqual({
      name: 'odd_labels',
      labels: { text: 'a "quoted" back\\slash\nnewline, {braces}' },
      value: -1.5,
    });
  });

  it('drops timestamps and reads special values', () => {
    expect(parsePrometheusText('a 1 1700000000000\nb +Inf\nc NaN\nd Nan\n')).toEqual([
      { name: 'a', labels: {}, value: 1 },
      { name: 'b', labels: {}, value: Number.POSITIVE_INFINITY },
      { name: 'c', labels: {}, value: Number.NaN },
      // prom-client's spelling, e.g. nodejs_eventloop_lag_mean_seconds before its first sample.
      { name: 'd', labels: {}, value: Number.NaN },
    ]);
  });

  it('names the line it cannot read', () => {
    expect(() => parsePrometheusText('# HELP a fine\na 1\n<html>not metrics</html>')).toThrow(
      PrometheusTextError,
    );
    expect(() => parsePrometheusText('a{outcome="x} 1')).toThrow(/line 1 .*not closed/);
  });
});

describe('total', () => {
  it('is undefined for a metric the text does not have', () => {
    expect(total(parsePrometheusText('a 1\n'), 'agent_runs_in_flight')).toBeUndefined();
  });
});
