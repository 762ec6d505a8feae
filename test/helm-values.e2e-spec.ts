import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { isMap, isScalar, parseDocument, type YAMLMap } from 'yaml';
import { ensureKubernetesTools } from 'dev-services';
import {
  chartDefaults,
  chartSchema,
  mergeValues,
  readYaml,
  withValue,
  type Values,
} from './support/helm-values';
import { CHART_DIR, helm, REPO_ROOT, templateArgs } from './support/kubernetes-cli';

/** The first call fetches helm and kubectl (tens of MB) on a fresh machine. */
const FETCH_TIMEOUT_MS = 300_000;

const schema = chartSchema();
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

function problems(values: Values): string[] {
  return validate(values)
    ? []
    : (validate.errors ?? []).map(
        (error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`,
      );
}

/** Values the schema must refuse, as helm `--set` pairs and as the same change to the defaults. */
const REFUSED: Array<{ what: string; set: string; path: string; value: unknown; error: RegExp }> = [
  {
    what: 'a saveMarginSeconds of 0',
    set: 'shutdown.saveMarginSeconds=0',
    path: 'shutdown.saveMarginSeconds',
    value: 0,
    error: /saveMarginSeconds/,
  },
  {
    what: 'an exitMarginSeconds of 0',
    set: 'shutdown.exitMarginSeconds=0',
    path: 'shutdown.exitMarginSeconds',
    value: 0,
    error: /exitMarginSeconds/,
  },
  {
    what: 'a negative preStopSeconds',
    set: 'shutdown.preStopSeconds=-1',
    path: 'shutdown.preStopSeconds',
    value: -1,
    error: /preStopSeconds/,
  },
  {
    what: 'a single replica',
    set: 'replicaCount=1',
    path: 'replicaCount',
    value: 1,
    error: /replicaCount/,
  },
  {
    what: 'an autoscaler minimum of 1',
    set: 'autoscaling.minReplicas=1',
    path: 'autoscaling.minReplicas',
    value: 1,
    error: /minReplicas/,
  },
  {
    what: 'a typo in a top-level key',
    set: 'replicaCout=3',
    path: 'replicaCout',
    value: 3,
    error: /replicaCout/,
  },
  {
    what: 'a direct grace period, which only the four shutdown inputs may set',
    set: 'shutdown.terminationGracePeriodSeconds=60',
    path: 'shutdown.terminationGracePeriodSeconds',
    value: 60,
    error: /terminationGracePeriodSeconds/,
  },
  {
    what: 'a scrape interval without a unit',
    set: 'metrics.serviceMonitor.interval=15',
    path: 'metrics.serviceMonitor.interval',
    value: '15',
    error: /interval/,
  },
  {
    what: 'a KEDA threshold of 0 runs per pod',
    set: 'autoscaling.keda.threshold=0',
    path: 'autoscaling.keda.threshold',
    value: 0,
    error: /threshold/,
  },
  {
    what: 'a KEDA server address without http(s)',
    set: 'autoscaling.keda.serverAddress=prometheus:9090',
    path: 'autoscaling.keda.serverAddress',
    value: 'prometheus:9090',
    error: /serverAddress/,
  },
  {
    what: 'a scale-down window past the API’s 3600 s',
    set: 'autoscaling.scaleDown.stabilizationWindowSeconds=7200',
    path: 'autoscaling.scaleDown.stabilizationWindowSeconds',
    value: 7200,
    error: /stabilizationWindowSeconds/,
  },
  {
    what: 'a scale-down of 0 pods per period',
    set: 'autoscaling.scaleDown.pods=0',
    path: 'autoscaling.scaleDown.pods',
    value: 0,
    error: /pods/,
  },
  {
    what: 'a pod deletion cost switch that is not a boolean',
    set: 'podDeletionCost.enabled=yes',
    path: 'podDeletionCost.enabled',
    value: 'yes',
    error: /enabled/,
  },
  {
    what: 'an unknown model provider',
    set: 'config.modelProvider=anthropic',
    path: 'config.modelProvider',
    value: 'anthropic',
    error: /modelProvider/,
  },
  {
    what: 'a negative per-user limit',
    set: 'config.limits.maxRunsPerUser=-1',
    path: 'config.limits.maxRunsPerUser',
    value: -1,
    error: /maxRunsPerUser/,
  },
  {
    what: 'a JWKS URL without http(s)',
    set: 'config.auth.jwksUrl=idp.example.test/jwks.json',
    path: 'config.auth.jwksUrl',
    value: 'idp.example.test/jwks.json',
    error: /jwksUrl/,
  },
  {
    what: 'an agent version past the service’s 128 characters',
    set: `config.agentVersion=${'v'.repeat(129)}`,
    path: 'config.agentVersion',
    value: 'v'.repeat(129),
    error: /agentVersion/,
  },
  {
    what: 'a run failure rate above 1',
    set: 'rollouts.analysis.metrics.runFailureRate.max=1.5',
    path: 'rollouts.analysis.metrics.runFailureRate.max',
    value: 1.5,
    error: /max/,
  },
  {
    what: 'a not-run reason the metric does not have',
    set: 'rollouts.analysis.metrics.toolCallsNotRun.reasons={tool_missing}',
    path: 'rollouts.analysis.metrics.toolCallsNotRun.reasons',
    value: ['tool_missing'],
    error: /reasons/,
  },
  {
    what: 'an analysis interval without a unit',
    set: 'rollouts.analysis.interval=60',
    path: 'rollouts.analysis.interval',
    value: '60',
    error: /interval/,
  },
  {
    what: 'an analysis Prometheus address without http(s)',
    set: 'rollouts.analysis.prometheusAddress=prometheus:9090',
    path: 'rollouts.analysis.prometheusAddress',
    value: 'prometheus:9090',
    error: /prometheusAddress/,
  },
];

type SchemaNode = Record<string, unknown> | undefined;

/** The schema node itself, or the definition its `$ref` points at. */
function resolved(node: SchemaNode): SchemaNode {
  const ref = node?.$ref as string | undefined;
  return ref
    ? (schema.definitions as Record<string, SchemaNode>)[ref.replace('#/definitions/', '')]
    : node;
}

/** Keys under `map` without a comment, in the chart-defined structures (those whose schema lists properties). */
function commentlessKeys(map: YAMLMap, schemaNode: SchemaNode, at: string): string[] {
  const properties = resolved(schemaNode)?.properties as Record<string, SchemaNode> | undefined;
  if (!properties) return []; // a pass-through Kubernetes object: its comment is on its parent's key
  const missing: string[] = [];
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '?';
    const commented = Boolean(
      (isScalar(pair.key) && pair.key.commentBefore) ||
      (isScalar(pair.value) && pair.value.comment),
    );
    // The first key of a map carries its comment on the map itself.
    const first = pair === map.items[0] && Boolean(map.commentBefore);
    if (!commented && !first) missing.push(`${at}${key}`);
    if (isMap(pair.value))
      missing.push(...commentlessKeys(pair.value, properties[key], `${at}${key}.`));
  }
  return missing;
}

beforeAll(async () => {
  await ensureKubernetesTools();
}, FETCH_TIMEOUT_MS);

describe('values.schema.json', () => {
  it('is a draft-07 schema that closes the top level to unknown keys', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.additionalProperties).toBe(false);
  });

  it('accepts values.yaml', () => {
    expect(problems(chartDefaults())).toEqual([]);
  });

  it('accepts values-production.yaml merged over values.yaml, as helm merges it', () => {
    expect(
      problems(mergeValues(chartDefaults(), readYaml(`${CHART_DIR}/values-production.yaml`))),
    ).toEqual([]);
  });

  it.each(REFUSED)('refuses $what', ({ path, value, error }) => {
    expect(problems(withValue(chartDefaults(), path, value)).join('; ')).toMatch(error);
  });

  it.each(REFUSED)('makes helm template refuse $what', async ({ set, error }) => {
    const result = await helm(templateArgs({ set: [set] }));
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/values don't meet the specifications of the schema/);
    expect(result.stderr).toMatch(error);
  });

  it('makes helm lint --strict fail on a single replica', async () => {
    const result = await helm(['lint', '--strict', CHART_DIR, '--set', 'replicaCount=1']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/replicaCount/);
  });

  it('makes helm template refuse an openai provider without a model name', async () => {
    const result = await helm(templateArgs({ set: ['config.modelProvider=openai'] }));
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/modelName/);
  });

  it('accepts an analysis with its own thresholds, reasons, timings and selector', () => {
    const tuned = {
      enabled: true,
      prometheusAddress: 'https://prometheus.example.test',
      selector: {
        namespace: 'agents',
        podLabel: 'kubernetes_pod_name',
        podTemplateHashArg: 'canary-hash',
      },
      interval: '1m30s',
      count: 10,
      failureLimit: 2,
      metrics: {
        resumesAcrossVersions: { enabled: false, max: 0 },
        toolCallsNotRun: { enabled: true, max: 3, reasons: ['tool_removed'] },
        runFailureRate: { enabled: true, max: 0.25, minRuns: 0 },
      },
    };
    expect(problems(withValue(chartDefaults(), 'rollouts.analysis', tuned))).toEqual([]);
  });

  it('makes helm template refuse an autoscaler whose maximum is below its minimum', async () => {
    const result = await helm(
      templateArgs({
        set: ['autoscaling.enabled=true', 'autoscaling.minReplicas=4', 'autoscaling.maxReplicas=3'],
      }),
    );
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/maxReplicas must be at least autoscaling.minReplicas/);
  });
});

describe('values.yaml', () => {
  it('has a comment on every value the chart defines', () => {
    const document = parseDocument(readFileSync(join(REPO_ROOT, CHART_DIR, 'values.yaml'), 'utf8'));
    expect(commentlessKeys(document.contents as YAMLMap, schema, '')).toEqual([]);
  });
});
