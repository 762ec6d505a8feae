import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ensureKubernetesTools, ensurePromtool } from 'dev-services';
import { allPanels, asPlainPromql, type Dashboard } from './support/grafana-dashboard';
import { CHART_DIR, helm, helmTemplate, REPO_ROOT, templateArgs, type RenderOptions } from './support/kubernetes-cli';
import { findObject, parseManifests, validateKubernetesObject, type KubernetesObject } from './support/kubernetes-objects';
import type { Deployment } from './support/pod-spec';
import { isKnownMetric, metricNames, SERVICE_METRICS } from './support/promql';
import { promtool } from './support/promtool';

/** The first calls fetch helm and kubectl (tens of MB) and promtool (19 MB) on a fresh machine. */
const FETCH_TIMEOUT_MS = 300_000;

const ALL_ON = ['metrics.serviceMonitor.enabled=true', 'metrics.prometheusRule.enabled=true', 'metrics.dashboard.enabled=true'];
const ALERTS_TEST = join(REPO_ROOT, 'test/fixtures/prometheus/agent-alerts.test.yaml');
const DASHBOARD_FILE = join(REPO_ROOT, CHART_DIR, 'dashboards/agent-service.json');

interface ServiceMonitorSpec {
  namespaceSelector: { matchNames: string[] };
  selector: { matchLabels: Record<string, string> };
  endpoints: Array<{ port: string; path: string; interval: string; scrapeTimeout: string }>;
}
interface RuleGroup {
  name: string;
  rules: Array<{ alert?: string; record?: string; expr: string; for?: string }>;
}

let byDefault: KubernetesObject[];
let allOn: KubernetesObject[];
let production: KubernetesObject[];
let work: string;

async function render(options: RenderOptions = {}): Promise<KubernetesObject[]> {
  return parseManifests(await helmTemplate(options), 'helm template');
}

function podAnnotations(objects: KubernetesObject[]): Record<string, string> {
  return findObject<Deployment>(objects, 'Deployment').spec.template.metadata.annotations ?? {};
}

function ruleGroups(objects: KubernetesObject[]): RuleGroup[] {
  return (findObject(objects, 'PrometheusRule').spec as { groups: RuleGroup[] }).groups;
}

/** `promtool <command> rules` on `groups`, written as a rules file (beside the alerts' unit tests for `test`). */
async function promtoolRules(command: 'check' | 'test', groups: RuleGroup[]) {
  writeFileSync(join(work, 'rules.yaml'), stringify({ groups }));
  copyFileSync(ALERTS_TEST, join(work, 'agent-alerts.test.yaml'));
  return promtool([command, 'rules', command === 'check' ? 'rules.yaml' : 'agent-alerts.test.yaml'], work);
}

function dashboardOf(objects: KubernetesObject[]): Dashboard {
  const configMap = findObject(objects, 'ConfigMap', 'agent-service-dashboard');
  return JSON.parse((configMap.data as Record<string, string>)['agent-service.json']) as Dashboard;
}

beforeAll(async () => {
  await Promise.all([ensureKubernetesTools(), ensurePromtool()]);
  [byDefault, allOn, production] = await Promise.all([render(), render({ set: ALL_ON }), render({ valuesFiles: [`${CHART_DIR}/values-production.yaml`] })]);
  work = mkdtempSync(join(tmpdir(), 'agent-rules-'));
}, FETCH_TIMEOUT_MS);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the chart’s metrics settings', () => {
  it('turn /metrics on in the service’s ConfigMap by default, and off with config.metricsEnabled false', async () => {
    expect(findObject(byDefault, 'ConfigMap').data).toMatchObject({ METRICS_ENABLED: 'true' });
    const off = await render({ set: ['config.metricsEnabled=false'] });
    expect(findObject(off, 'ConfigMap').data).toMatchObject({ METRICS_ENABLED: 'false' });
    expect(podAnnotations(off)['prometheus.io/scrape']).toBeUndefined();
  });

  it('annotate the pods for annotation-based scraping by default, on the metrics port', () => {
    expect(podAnnotations(byDefault)).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9464', 'prometheus.io/path': '/metrics' });
  });

  it('serve /metrics on a port of its own (METRICS_PORT), a container port and a Service port named metrics apart from http', () => {
    expect(findObject(byDefault, 'ConfigMap').data).toMatchObject({ PORT: '3000', METRICS_PORT: '9464' });
    const container = findObject<Deployment>(byDefault, 'Deployment').spec.template.spec.containers[0] as {
      ports: Array<{ name: string; containerPort: number }>;
    };
    expect(container.ports).toEqual([
      { name: 'http', containerPort: 3000, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
    ]);
    const ports = (findObject(byDefault, 'Service').spec as { ports: Array<{ name: string; port: number; targetPort: string }> }).ports;
    expect(ports.map(({ name, port, targetPort }) => ({ name, port, targetPort }))).toEqual([
      { name: 'http', port: 80, targetPort: 'http' },
      { name: 'metrics', port: 9464, targetPort: 'metrics' },
    ]);
  });

  it('leave the metrics port out with config.metricsEnabled false', async () => {
    const off = await render({ set: ['config.metricsEnabled=false'] });
    expect(findObject(off, 'ConfigMap').data).not.toHaveProperty('METRICS_PORT');
    expect((findObject(off, 'Service').spec as { ports: Array<{ name: string }> }).ports.map((port) => port.name)).toEqual(['http']);
  });

  it('make helm refuse a metrics port equal to the container port', async () => {
    const result = await helm(templateArgs({ set: ['metricsPort=3000'] }));
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/metricsPort must differ from containerPort/);
  });

  it('render no ServiceMonitor, PrometheusRule or dashboard by default', () => {
    const observability = byDefault.filter((o) => o.apiVersion === 'monitoring.coreos.com/v1' || o.metadata?.name === 'agent-service-dashboard');
    expect(observability).toEqual([]);
  });

  it('render valid objects with all three on, the Prometheus operator’s checked against its CRD schemas', () => {
    expect(allOn.filter((o) => o.apiVersion === 'monitoring.coreos.com/v1').map((o) => o.kind)).toEqual(['PrometheusRule', 'ServiceMonitor']);
    for (const object of allOn) validateKubernetesObject(object);
  });

  it('are checked by a validator that rejects a ServiceMonitor whose interval is not a duration', () => {
    const broken = structuredClone(findObject(allOn, 'ServiceMonitor'));
    (broken.spec as ServiceMonitorSpec).endpoints[0].interval = '15';
    expect(() => validateKubernetesObject(broken)).toThrow(/interval must match pattern/);
  });

  it('make helm refuse a ServiceMonitor while the service serves no metrics', async () => {
    const result = await helm(templateArgs({ set: ['config.metricsEnabled=false', 'metrics.serviceMonitor.enabled=true'] }));
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/metrics.serviceMonitor.enabled needs config.metricsEnabled: true/);
  });

  it('turn on the ServiceMonitor, the alerts and the dashboard in values-production.yaml', () => {
    expect(production.filter((o) => o.apiVersion === 'monitoring.coreos.com/v1').map((o) => o.kind)).toEqual(['PrometheusRule', 'ServiceMonitor']);
    expect(findObject(production, 'ConfigMap', 'agent-service-dashboard').metadata!.labels).toMatchObject({ grafana_dashboard: '1' });
  });
});

describe('the ServiceMonitor', () => {
  it('scrapes /metrics on the Service’s metrics port, in the release’s namespace', () => {
    const spec = findObject(allOn, 'ServiceMonitor').spec as ServiceMonitorSpec;
    const service = findObject(allOn, 'Service');
    expect(spec.selector.matchLabels).toEqual(expect.objectContaining({ 'app.kubernetes.io/instance': 'agent-service' }));
    expect(Object.entries(spec.selector.matchLabels).every(([key, value]) => service.metadata!.labels![key] === value)).toBe(true);
    const ports = (service.spec as { ports: Array<{ name: string }> }).ports.map((port) => port.name);
    expect(spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '15s', scrapeTimeout: '10s' }]);
    expect(ports).toContain(spec.endpoints[0].port);
    expect(spec.namespaceSelector.matchNames).toEqual(['default']);
  });

  it('replaces the pods’ scrape annotations, so no Prometheus scrapes a pod twice', () => {
    expect(podAnnotations(allOn)['prometheus.io/scrape']).toBeUndefined();
  });

  it('carries the labels a Prometheus’s serviceMonitorSelector matches', () => {
    expect(findObject(production, 'ServiceMonitor').metadata!.labels).toMatchObject({ release: 'kube-prometheus-stack' });
  });
});

describe('the PrometheusRule', () => {
  it('passes promtool check rules', async () => {
    const result = await promtoolRules('check', ruleGroups(allOn));
    expect(result.output).toContain('SUCCESS: 4 rules found');
    expect(result.exitCode).toBe(0);
  });

  it('passes promtool’s unit tests: each alert fires when it should and stays silent when it should not', async () => {
    const result = await promtoolRules('test', ruleGroups(allOn));
    expect(result.output).toContain('SUCCESS');
    expect(result.exitCode).toBe(0);
  });

  it('has unit tests that fail on other thresholds', async () => {
    const other = await render({ set: [...ALL_ON, 'metrics.prometheusRule.alerts.runsStuck.window=10m', 'shutdown.saveMarginSeconds=10'] });
    const result = await promtoolRules('test', ruleGroups(other));
    expect(result.output).toMatch(/alertname: AgentRunsStuck/);
    expect(result.output).toMatch(/alertname: AgentShutdownOverBudget/);
    expect(result.exitCode).not.toBe(0);
  });

  it('is read by a metric-name reader that sees through functions, groupings, matchers and ranges', () => {
    expect(metricNames('sum by (pod) (rate(agent_runs_totl{outcome="x"}[5m])) and on (pod) up offset 5m > 0.5')).toEqual(['agent_runs_totl', 'up']);
    expect(['agent_runs_totl', 'up', 'agent_cancel_delivery_seconds_bucket', 'agent_runs_total_sum'].map(isKnownMetric)).toEqual([false, false, true, false]);
  });

  it('names only the service’s metrics', () => {
    const names = ruleGroups(allOn).flatMap((group) => group.rules.flatMap((rule) => metricNames(rule.expr)));
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !isKnownMetric(name))).toEqual([]);
  });

  it('leaves out an alert that is turned off', async () => {
    const objects = await render({ set: ['metrics.prometheusRule.enabled=true', 'metrics.prometheusRule.alerts.leaseLoss.enabled=false'] });
    expect(ruleGroups(objects)[0].rules.map((rule) => rule.alert)).toEqual(['AgentRunsStuck', 'AgentShutdownOverBudget', 'AgentSignalBusDisconnected']);
  });
});

describe('the dashboard', () => {
  it('is the chart’s dashboards/agent-service.json, in a ConfigMap labelled for the Grafana sidecar', () => {
    const configMap = findObject(allOn, 'ConfigMap', 'agent-service-dashboard');
    expect(configMap.metadata!.labels).toMatchObject({ grafana_dashboard: '1' });
    expect((configMap.data as Record<string, string>)['agent-service.json']).toBe(readFileSync(DASHBOARD_FILE, 'utf8').trimEnd());
  });

  it('queries its Prometheus through a data source variable, with one query or more per panel', () => {
    const dashboard = dashboardOf(allOn);
    expect(dashboard.templating.list.find((variable) => variable.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const panels = allPanels(dashboard).filter((panel) => panel.type !== 'row');
    expect(new Set(allPanels(dashboard).map((panel) => panel.id)).size).toBe(allPanels(dashboard).length);
    for (const panel of panels) {
      expect([panel.title, panel.datasource?.uid, (panel.targets ?? []).length > 0]).toEqual([panel.title, '${datasource}', true]);
    }
  });

  it('has only queries that pass promtool check rules', async () => {
    const panels = allPanels(dashboardOf(allOn));
    const rules = panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ record: `dashboard:panel_${panel.id}_${target.refId}`, expr: asPlainPromql(target.expr) })),
    );
    const result = await promtoolRules('check', [{ name: 'dashboard', rules }]);
    expect(result.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(result.exitCode).toBe(0);
  });

  it('names only the service’s metrics and default process metrics', () => {
    const names = allPanels(dashboardOf(allOn)).flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricNames(target.expr)));
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !isKnownMetric(name))).toEqual([]);
  });

  it('shows every metric of the service', () => {
    const names = new Set(allPanels(dashboardOf(allOn)).flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricNames(target.expr))));
    const shown = [...names].map((name) => name.replace(/_(bucket|sum|count)$/, ''));
    expect(Object.keys(SERVICE_METRICS).filter((name) => !shown.includes(name))).toEqual([]);
  });
});
