import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ensureKubernetesTools, ensurePromtool } from 'dev-services';
import { allPanels, asPlainPromql, type Dashboard } from './support/grafana-dashboard';
import {
  CHART_DIR,
  helm,
  helmTemplate,
  REPO_ROOT,
  templateArgs,
  type RenderOptions,
} from './support/kubernetes-cli';
import {
  findObject,
  parseManifests,
  validateKubernetesObject,
  type KubernetesObject,
} from './support/kubernetes-objects';
import type { Deployment } from './support/pod-spec';
import { isKnownMetric, metricNames, SERVICE_METRICS } from './support/promql';
import { promtool } from './support/promtool';
import { analysisSpec, meetsCondition, promqlTestFile, withArgs } from './support/rollout-analysis';

/** The first calls fetch helm and kubectl (tens of MB) and promtool (19 MB) on a fresh machine. */
const FETCH_TIMEOUT_MS = 300_000;

const ALL_ON = [
  'metrics.serviceMonitor.enabled=true',
  'metrics.prometheusRule.enabled=true',
  'metrics.dashboard.enabled=true',
];
const PROMETHEUS = 'http://prometheus-operated.monitoring.svc:9090';
const ANALYSIS_ON = [
  'rollouts.analysis.enabled=true',
  `rollouts.analysis.prometheusAddress=${PROMETHEUS}`,
];
/** The pod template hashes of the new version (the one the analysis is about) and of the old one. */
const NEW_HASH = '5d4c7b9f8d';
const OLD_HASH = '6f8b9c7d4e';
const AGENT_VERSIONS_PAGE = join(REPO_ROOT, 'docs/agent-versions.md');
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
let analysisOn: KubernetesObject[];
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
  return promtool(
    [command, 'rules', command === 'check' ? 'rules.yaml' : 'agent-alerts.test.yaml'],
    work,
  );
}

function dashboardOf(objects: KubernetesObject[]): Dashboard {
  const configMap = findObject(objects, 'ConfigMap', 'agent-service-dashboard');
  return JSON.parse((configMap.data as Record<string, string>)['agent-service.json']) as Dashboard;
}

beforeAll(async () => {
  await Promise.all([ensureKubernetesTools(), ensurePromtool()]);
  [byDefault, allOn, production, analysisOn] = await Promise.all([
    render(),
    render({ set: ALL_ON }),
    render({ valuesFiles: [`${CHART_DIR}/values-production.yaml`] }),
    render({ set: ANALYSIS_ON }),
  ]);
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
    expect(podAnnotations(byDefault)).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9464',
      'prometheus.io/path': '/metrics',
    });
  });

  it('serve /metrics on a port of its own (METRICS_PORT), a container port and a Service port named metrics apart from http', () => {
    expect(findObject(byDefault, 'ConfigMap').data).toMatchObject({
      PORT: '3000',
      METRICS_PORT: '9464',
    });
    const container = findObject<Deployment>(byDefault, 'Deployment').spec.template.spec
      .containers[0] as {
      ports: Array<{ name: string; containerPort: number }>;
    };
    expect(container.ports).toEqual([
      { name: 'http', containerPort: 3000, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
    ]);
    const ports = (
      findObject(byDefault, 'Service').spec as {
        ports: Array<{ name: string; port: number; targetPort: string }>;
      }
    ).ports;
    expect(ports.map(({ name, port, targetPort }) => ({ name, port, targetPort }))).toEqual([
      { name: 'http', port: 80, targetPort: 'http' },
      { name: 'metrics', port: 9464, targetPort: 'metrics' },
    ]);
  });

  it('leave the metrics port out with config.metricsEnabled false', async () => {
    const off = await render({ set: ['config.metricsEnabled=false'] });
    expect(findObject(off, 'ConfigMap').data).not.toHaveProperty('METRICS_PORT');
    expect(
      (findObject(off, 'Service').spec as { ports: Array<{ name: string }> }).ports.map(
        (port) => port.name,
      ),
    ).toEqual(['http']);
  });

  it('make helm refuse a metrics port equal to the container port', async () => {
    const result = await helm(templateArgs({ set: ['metricsPort=3000'] }));
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/metricsPort must differ from containerPort/);
  });

  it('render no ServiceMonitor, PrometheusRule or dashboard by default', () => {
    const observability = byDefault.filter(
      (o) =>
        o.apiVersion === 'monitoring.coreos.com/v1' ||
        o.metadata?.name === 'agent-service-dashboard',
    );
    expect(observability).toEqual([]);
  });

  it('render valid objects with all three on, the Prometheus operator’s checked against its CRD schemas', () => {
    expect(
      allOn.filter((o) => o.apiVersion === 'monitoring.coreos.com/v1').map((o) => o.kind),
    ).toEqual(['PrometheusRule', 'ServiceMonitor']);
    for (const object of allOn) validateKubernetesObject(object);
  });

  it('are checked by a validator that rejects a ServiceMonitor whose interval is not a duration', () => {
    const broken = structuredClone(findObject(allOn, 'ServiceMonitor'));
    (broken.spec as ServiceMonitorSpec).endpoints[0].interval = '15';
    expect(() => validateKubernetesObject(broken)).toThrow(/interval must match pattern/);
  });

  it('make helm refuse a ServiceMonitor while the service serves no metrics', async () => {
    const result = await helm(
      templateArgs({ set: ['config.metricsEnabled=false', 'metrics.serviceMonitor.enabled=true'] }),
    );
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(
      /metrics.serviceMonitor.enabled needs config.metricsEnabled: true/,
    );
  });

  it('turn on the ServiceMonitor, the alerts and the dashboard in values-production.yaml', () => {
    expect(
      production.filter((o) => o.apiVersion === 'monitoring.coreos.com/v1').map((o) => o.kind),
    ).toEqual(['PrometheusRule', 'ServiceMonitor']);
    expect(
      findObject(production, 'ConfigMap', 'agent-service-dashboard').metadata!.labels,
    ).toMatchObject({ grafana_dashboard: '1' });
  });
});

describe('the ServiceMonitor', () => {
  it('scrapes /metrics on the Service’s metrics port, in the release’s namespace', () => {
    const spec = findObject(allOn, 'ServiceMonitor').spec as ServiceMonitorSpec;
    const service = findObject(allOn, 'Service');
    expect(spec.selector.matchLabels).toEqual(
      expect.objectContaining({ 'app.kubernetes.io/instance': 'agent-service' }),
    );
    expect(
      Object.entries(spec.selector.matchLabels).every(
        ([key, value]) => service.metadata!.labels![key] === value,
      ),
    ).toBe(true);
    const ports = (service.spec as { ports: Array<{ name: string }> }).ports.map(
      (port) => port.name,
    );
    expect(spec.endpoints).toEqual([
      { port: 'metrics', path: '/metrics', interval: '15s', scrapeTimeout: '10s' },
    ]);
    expect(ports).toContain(spec.endpoints[0].port);
    expect(spec.namespaceSelector.matchNames).toEqual(['default']);
  });

  it('replaces the pods’ scrape annotations, so no Prometheus scrapes a pod twice', () => {
    expect(podAnnotations(allOn)['prometheus.io/scrape']).toBeUndefined();
  });

  it('carries the labels a Prometheus’s serviceMonitorSelector matches', () => {
    expect(findObject(production, 'ServiceMonitor').metadata!.labels).toMatchObject({
      release: 'kube-prometheus-stack',
    });
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
    const other = await render({
      set: [
        ...ALL_ON,
        'metrics.prometheusRule.alerts.runsStuck.window=10m',
        'shutdown.saveMarginSeconds=10',
      ],
    });
    const result = await promtoolRules('test', ruleGroups(other));
    expect(result.output).toMatch(/alertname: AgentRunsStuck/);
    expect(result.output).toMatch(/alertname: AgentShutdownOverBudget/);
    expect(result.exitCode).not.toBe(0);
  });

  it('is read by a metric-name reader that sees through functions, groupings, matchers and ranges', () => {
    expect(
      metricNames(
        'sum by (pod) (rate(agent_runs_totl{outcome="x"}[5m])) and on (pod) up offset 5m > 0.5',
      ),
    ).toEqual(['agent_runs_totl', 'up']);
    expect(
      ['agent_runs_totl', 'up', 'agent_cancel_delivery_seconds_bucket', 'agent_runs_total_sum'].map(
        isKnownMetric,
      ),
    ).toEqual([false, false, true, false]);
  });

  it('names only the service’s metrics', () => {
    const names = ruleGroups(allOn).flatMap((group) =>
      group.rules.flatMap((rule) => metricNames(rule.expr)),
    );
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !isKnownMetric(name))).toEqual([]);
  });

  it('leaves out an alert that is turned off', async () => {
    const objects = await render({
      set: [
        'metrics.prometheusRule.enabled=true',
        'metrics.prometheusRule.alerts.leaseLoss.enabled=false',
      ],
    });
    expect(ruleGroups(objects)[0].rules.map((rule) => rule.alert)).toEqual([
      'AgentRunsStuck',
      'AgentShutdownOverBudget',
      'AgentSignalBusDisconnected',
    ]);
  });
});

describe('the dashboard', () => {
  it('is the chart’s dashboards/agent-service.json, in a ConfigMap labelled for the Grafana sidecar', () => {
    const configMap = findObject(allOn, 'ConfigMap', 'agent-service-dashboard');
    expect(configMap.metadata!.labels).toMatchObject({ grafana_dashboard: '1' });
    expect((configMap.data as Record<string, string>)['agent-service.json']).toBe(
      readFileSync(DASHBOARD_FILE, 'utf8').trimEnd(),
    );
  });

  it('queries its Prometheus through a data source variable, with one query or more per panel', () => {
    const dashboard = dashboardOf(allOn);
    expect(
      dashboard.templating.list.find((variable) => variable.name === 'datasource'),
    ).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const panels = allPanels(dashboard).filter((panel) => panel.type !== 'row');
    expect(new Set(allPanels(dashboard).map((panel) => panel.id)).size).toBe(
      allPanels(dashboard).length,
    );
    for (const panel of panels) {
      expect([panel.title, panel.datasource?.uid, (panel.targets ?? []).length > 0]).toEqual([
        panel.title,
        '${datasource}',
        true,
      ]);
    }
  });

  it('has only queries that pass promtool check rules', async () => {
    const panels = allPanels(dashboardOf(allOn));
    const rules = panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({
        record: `dashboard:panel_${panel.id}_${target.refId}`,
        expr: asPlainPromql(target.expr),
      })),
    );
    const result = await promtoolRules('check', [{ name: 'dashboard', rules }]);
    expect(result.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(result.exitCode).toBe(0);
  });

  it('names only the service’s metrics and default process metrics', () => {
    const names = allPanels(dashboardOf(allOn)).flatMap((panel) =>
      (panel.targets ?? []).flatMap((target) => metricNames(target.expr)),
    );
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !isKnownMetric(name))).toEqual([]);
  });

  it('shows every metric of the service', () => {
    const names = new Set(
      allPanels(dashboardOf(allOn)).flatMap((panel) =>
        (panel.targets ?? []).flatMap((target) => metricNames(target.expr)),
      ),
    );
    const shown = [...names].map((name) => name.replace(/_(bucket|sum|count)$/, ''));
    expect(Object.keys(SERVICE_METRICS).filter((name) => !shown.includes(name))).toEqual([]);
  });
});

describe('the Argo Rollouts AnalysisTemplate', () => {
  /** The template's queries as Argo Rollouts sends them for the new version's pods, by metric name. */
  function queriesOf(objects: KubernetesObject[], hash = NEW_HASH): Record<string, string> {
    const spec = analysisSpec(objects);
    const args = { [spec.args[0].name]: hash };
    return Object.fromEntries(
      spec.metrics.map((metric) => [metric.name, withArgs(metric.provider.prometheus.query, args)]),
    );
  }

  /** `promtool test rules` on a unit test file written into the work directory. */
  async function promtoolTest(file: string) {
    writeFileSync(join(work, 'analysis.test.yaml'), file);
    return promtool(['test', 'rules', 'analysis.test.yaml'], work);
  }

  it('is not rendered by default, nor by values-production.yaml', () => {
    expect(
      [...byDefault, ...production].filter((object) => object.kind === 'AnalysisTemplate'),
    ).toEqual([]);
  });

  it('renders with rollouts.analysis.enabled as a valid argoproj.io/v1alpha1 AnalysisTemplate, checked against the Argo Rollouts CRD schema', () => {
    const template = findObject(analysisOn, 'AnalysisTemplate');
    expect([template.apiVersion, template.metadata!.name]).toEqual([
      'argoproj.io/v1alpha1',
      'agent-service',
    ]);
    validateKubernetesObject(template);
  });

  it('takes the new pods’ hash as its one argument, and its address, interval, count and failure limit from the values', () => {
    const spec = analysisSpec(analysisOn);
    expect(spec.args).toEqual([{ name: 'pod-template-hash' }]);
    for (const metric of spec.metrics) {
      expect([
        metric.provider.prometheus.address,
        metric.interval,
        metric.count,
        metric.failureLimit,
      ]).toEqual([PROMETHEUS, '1m', 5, 0]);
      expect(metric.provider.prometheus.query).toContain('{{args.pod-template-hash}}');
    }
  });

  it('measures resumes across versions, tool calls not run and the run failure rate, each on its metric', () => {
    const names = Object.entries(queriesOf(analysisOn)).map(([metric, query]) => [
      metric,
      metricNames(query),
    ]);
    expect(names).toEqual([
      ['resumes-across-versions', ['agent_resumes_across_versions_total']],
      ['tool-calls-not-run', ['agent_tool_calls_not_run_total']],
      ['run-failure-rate', ['agent_runs_total']],
    ]);
    expect(names.flatMap(([, metrics]) => metrics).filter((name) => !isKnownMetric(name))).toEqual(
      [],
    );
  });

  it('has only queries that pass promtool check rules once Argo Rollouts has written the hash in', async () => {
    const rules = Object.entries(queriesOf(analysisOn)).map(([metric, expr]) => ({
      record: `analysis:${metric.replace(/-/g, '_')}`,
      expr,
    }));
    const result = await promtoolRules('check', [{ name: 'analysis', rules }]);
    expect(result.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(result.exitCode).toBe(0);
  });

  it('reads only the new version’s pods, from their start, with a failure rate only past minRuns, as promtool’s unit test shows', async () => {
    const pod = (hash: string) => `namespace="default", pod="agent-service-${hash}-x7k2q"`;
    const series = [
      { series: `agent_resumes_across_versions_total{${pod(NEW_HASH)}}`, values: '0 1 3' },
      { series: `agent_resumes_across_versions_total{${pod(OLD_HASH)}}`, values: '0 7 9' },
      {
        series: `agent_tool_calls_not_run_total{${pod(NEW_HASH)}, reason="tool_removed"}`,
        values: '0 0 2',
      },
      {
        series: `agent_tool_calls_not_run_total{${pod(NEW_HASH)}, reason="invalid_arguments"}`,
        values: '0 0 1',
      },
      {
        series: `agent_tool_calls_not_run_total{${pod(OLD_HASH)}, reason="tool_removed"}`,
        values: '0 5 5',
      },
      { series: `agent_runs_total{${pod(NEW_HASH)}, outcome="completed"}`, values: '0 10 38' },
      { series: `agent_runs_total{${pod(NEW_HASH)}, outcome="failed"}`, values: '0 1 2' },
      { series: `agent_runs_total{${pod(OLD_HASH)}, outcome="failed"}`, values: '0 50 90' },
    ];
    const queries = queriesOf(analysisOn);
    const noPods = queriesOf(analysisOn, 'a1b2c3d4e5');
    const expectations = [
      { expr: queries['resumes-across-versions'], evalTime: '2m', value: 3 },
      { expr: queries['tool-calls-not-run'], evalTime: '2m', value: 3 },
      { expr: queries['run-failure-rate'], evalTime: '1m', value: 0 },
      { expr: queries['run-failure-rate'], evalTime: '2m', value: 0.05 },
      ...Object.values(noPods).map((expr) => ({ expr, evalTime: '2m', value: 0 })),
    ];
    const result = await promtoolTest(promqlTestFile(series, expectations));
    expect(result.output).toContain('SUCCESS');
    expect(result.exitCode).toBe(0);
  });

  it('has a unit test that fails on a query that reads the old pods too', async () => {
    const everyPod = queriesOf(analysisOn)['resumes-across-versions'].replace(
      NEW_HASH,
      '[a-z0-9]+',
    );
    const series = [
      {
        series: `agent_resumes_across_versions_total{namespace="default", pod="agent-service-${NEW_HASH}-x7k2q"}`,
        values: '0 3',
      },
      {
        series: `agent_resumes_across_versions_total{namespace="default", pod="agent-service-${OLD_HASH}-x7k2q"}`,
        values: '0 9',
      },
    ];
    const result = await promtoolTest(
      promqlTestFile(series, [{ expr: everyPod, evalTime: '1m', value: 3 }]),
    );
    expect(result.exitCode).not.toBe(0);
  });

  it('compares each measurement with its max from the values', () => {
    const conditions = Object.fromEntries(
      analysisSpec(analysisOn).metrics.map((metric) => [metric.name, metric.successCondition]),
    );
    expect([
      meetsCondition(conditions['resumes-across-versions'], 50),
      meetsCondition(conditions['resumes-across-versions'], 51),
    ]).toEqual([true, false]);
    expect([
      meetsCondition(conditions['tool-calls-not-run'], 0),
      meetsCondition(conditions['tool-calls-not-run'], 1),
    ]).toEqual([true, false]);
    expect([
      meetsCondition(conditions['run-failure-rate'], 0.05),
      meetsCondition(conditions['run-failure-rate'], 0.06),
    ]).toEqual([true, false]);
  });

  it('follows its values: namespace, pod label, argument, timings, thresholds, the reasons counted, and a metric turned off', async () => {
    const analysis = 'rollouts.analysis';
    const tunedRate = join(work, 'failure-rate.yaml');
    writeFileSync(
      tunedRate,
      stringify({ rollouts: { analysis: { metrics: { runFailureRate: { max: 0.1 } } } } }),
    );
    const objects = await render({
      set: [
        ...ANALYSIS_ON,
        `${analysis}.selector.namespace=agents`,
        `${analysis}.selector.podLabel=kubernetes_pod_name`,
        `${analysis}.selector.podTemplateHashArg=canary-hash`,
        `${analysis}.interval=30s`,
        `${analysis}.count=10`,
        `${analysis}.failureLimit=1`,
        `${analysis}.metrics.resumesAcrossVersions.enabled=false`,
        `${analysis}.metrics.toolCallsNotRun.max=2`,
        `${analysis}.metrics.toolCallsNotRun.reasons={tool_removed,invalid_arguments}`,
      ],
      // helm --set reads 0.1 as a string, which the schema refuses: a values file keeps it a number.
      valuesFiles: [tunedRate],
    });
    const spec = analysisSpec(objects);
    validateKubernetesObject(findObject(objects, 'AnalysisTemplate'));
    expect(spec.args).toEqual([{ name: 'canary-hash' }]);
    expect(
      spec.metrics.map(({ name, interval, count, failureLimit, successCondition }) => [
        name,
        interval,
        count,
        failureLimit,
        successCondition,
      ]),
    ).toEqual([
      ['tool-calls-not-run', '30s', 10, 1, 'result[0] <= 2'],
      ['run-failure-rate', '30s', 10, 1, 'result[0] <= 0.1'],
    ]);
    const notRun = queriesOf(objects)['tool-calls-not-run'];
    expect(notRun).toContain(`namespace="agents", kubernetes_pod_name=~".+-${NEW_HASH}-[a-z0-9]+"`);
    expect(notRun).toContain('reason=~"tool_removed|invalid_arguments"');
  });

  it('is run by the Rollout example of docs/agent-versions.md, a valid Rollout that passes the new pods’ hash', () => {
    const blocks = [
      ...readFileSync(AGENT_VERSIONS_PAGE, 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g),
    ].map((match) => match[1]);
    const rollout = parseManifests(blocks.join('---\n'), 'docs/agent-versions.md').find(
      (object) => object.kind === 'Rollout',
    );
    expect(rollout).toBeDefined();
    validateKubernetesObject(rollout!);
    type Step = { analysis?: { templates: Array<{ templateName: string }>; args: unknown[] } };
    const steps = (
      rollout!.spec as { strategy: { canary: { steps: Step[] } } }
    ).strategy.canary.steps.filter((step) => step.analysis);
    const template = findObject(analysisOn, 'AnalysisTemplate');
    const hashArg = {
      name: analysisSpec(analysisOn).args[0].name,
      valueFrom: { podTemplateHashValue: 'Latest' },
    };
    expect(steps.length).toBeGreaterThan(0);
    for (const { analysis } of steps)
      expect(analysis).toEqual({
        templates: [{ templateName: template.metadata!.name }],
        args: [hashArg],
      });
    expect(rollout!.metadata!.name).toBe(template.metadata!.name);
  });

  it('makes helm refuse it without a Prometheus address, while the service serves no metrics, or with every metric off', async () => {
    const off = ['resumesAcrossVersions', 'toolCallsNotRun', 'runFailureRate'].map(
      (name) => `rollouts.analysis.metrics.${name}.enabled=false`,
    );
    const results = await Promise.all([
      helm(templateArgs({ set: ['rollouts.analysis.enabled=true'] })),
      helm(templateArgs({ set: [...ANALYSIS_ON, 'config.metricsEnabled=false'] })),
      helm(templateArgs({ set: [...ANALYSIS_ON, ...off] })),
    ]);
    expect(results.map((result) => result.exitCode === 0)).toEqual([false, false, false]);
    expect(results[0].stderr).toMatch(/rollouts.analysis.prometheusAddress is required/);
    expect(results[1].stderr).toMatch(
      /rollouts.analysis.enabled needs config.metricsEnabled: true/,
    );
    expect(results[2].stderr).toMatch(/needs one of rollouts.analysis.metrics/);
  });
});
