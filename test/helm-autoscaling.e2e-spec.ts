import { APP_ENV_VARIABLES, loadAppConfig } from '../src/app/config/app-config';
import { scaleDownBehavior, type ScaleDownInputs } from '../tools/deploy/scale-down-behavior';
import { ensureKubernetesTools } from 'dev-services';
import { chartDefaults, mergeValues, readYaml, type Values } from './support/helm-values';
import {
  CHART_DIR,
  helm,
  helmTemplate,
  templateArgs,
  type RenderOptions,
} from './support/kubernetes-cli';
import {
  findObject,
  parseManifests,
  validateKubernetesObject,
  type KubernetesObject,
} from './support/kubernetes-objects';
import { effectiveEnv, onlyContainer, podSpecOf, type Deployment } from './support/pod-spec';
import type { ShutdownTimingInputs } from '../tools/deploy/shutdown-timings';

/** The first call fetches helm and kubectl (tens of MB) on a fresh machine. */
const FETCH_TIMEOUT_MS = 300_000;

const PROMETHEUS = 'http://prometheus-operated.monitoring.svc:9090';
const PRODUCTION_FILE = `${CHART_DIR}/values-production.yaml`;
const PODS_METRIC = ['autoscaling.enabled=true', 'autoscaling.podsMetric.enabled=true'];
const KEDA = [
  'autoscaling.enabled=true',
  'autoscaling.keda.enabled=true',
  `autoscaling.keda.serverAddress=${PROMETHEUS}`,
];
const DELETION_COST = ['podDeletionCost.enabled=true'];

/** An HPA or ScaledObject, as far as the checks read it. */
type Spec = Record<string, unknown> & {
  metrics?: unknown[];
  behavior?: unknown;
  triggers?: Array<Record<string, unknown>>;
  advanced?: unknown;
};

let byDefault: KubernetesObject[];
let podsMetric: KubernetesObject[];
let keda: KubernetesObject[];
let deletionCost: KubernetesObject[];

async function render(options: RenderOptions = {}): Promise<KubernetesObject[]> {
  return parseManifests(await helmTemplate(options), 'helm template');
}

function specOf(objects: KubernetesObject[], kind: string): Spec {
  return findObject(objects, kind).spec as Spec;
}

function kinds(objects: KubernetesObject[]): string[] {
  return objects.map((object) => object.kind);
}

function containerOf(objects: KubernetesObject[]) {
  return onlyContainer(podSpecOf(findObject<Deployment>(objects, 'Deployment')));
}

/** The scale-down behavior the TypeScript mirror computes for a values tree. */
function expectedBehavior(values: Values) {
  const autoscaling = values.autoscaling as { scaleDown: ScaleDownInputs };
  return {
    scaleDown: scaleDownBehavior(values.shutdown as ShutdownTimingInputs, autoscaling.scaleDown),
  };
}

beforeAll(async () => {
  await ensureKubernetesTools();
  [byDefault, podsMetric, keda, deletionCost] = await Promise.all([
    render(),
    render({ set: PODS_METRIC }),
    render({ set: KEDA }),
    render({ set: DELETION_COST }),
  ]);
}, FETCH_TIMEOUT_MS);

describe('scaling on runs in flight', () => {
  it('is off by default: no autoscaler, no ScaledObject', () => {
    expect(kinds(byDefault)).not.toContain('HorizontalPodAutoscaler');
    expect(kinds(byDefault)).not.toContain('ScaledObject');
  });

  it('adds a Pods metric on agent_runs_in_flight to the HPA, beside the CPU target, valid for autoscaling/v2', () => {
    const hpa = findObject(podsMetric, 'HorizontalPodAutoscaler');
    validateKubernetesObject(hpa);
    expect((hpa.spec as Spec).metrics).toEqual([
      expect.objectContaining({
        type: 'Resource',
        resource: expect.objectContaining({ name: 'cpu' }),
      }),
      {
        type: 'Pods',
        pods: {
          metric: { name: 'agent_runs_in_flight' },
          target: { type: 'AverageValue', averageValue: '5' },
        },
      },
    ]);
  });

  it('makes a KEDA ScaledObject valid against KEDA’s CRD schema, and no HPA of its own', () => {
    for (const object of keda) validateKubernetesObject(object);
    expect(kinds(keda)).toContain('ScaledObject');
    expect(kinds(keda)).not.toContain('HorizontalPodAutoscaler');
  });

  it('scales the Deployment with KEDA between minReplicas and maxReplicas, leaving it no replica count', () => {
    const deployment = findObject<Deployment>(keda, 'Deployment');
    expect(specOf(keda, 'ScaledObject')).toMatchObject({
      scaleTargetRef: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: deployment.metadata!.name,
      },
      minReplicaCount: 2,
      maxReplicaCount: 10,
    });
    expect(deployment.spec.replicas).toBeUndefined();
  });

  it('queries Prometheus for the sum of agent_runs_in_flight over the release’s pods, with a target per pod', () => {
    const [runs, cpu] = specOf(keda, 'ScaledObject').triggers!;
    expect(runs).toEqual({
      type: 'prometheus',
      metricType: 'AverageValue',
      metadata: {
        serverAddress: PROMETHEUS,
        query:
          'sum(agent_runs_in_flight{namespace="default", pod=~"agent-service-[a-z0-9]+-[a-z0-9]+"})',
        threshold: '5',
      },
    });
    expect(cpu).toMatchObject({
      type: 'cpu',
      metricType: 'Utilization',
      metadata: { value: '70' },
    });
  });

  it('takes a query of the operator’s own', async () => {
    const objects = await render({
      set: [...KEDA, 'autoscaling.keda.query=sum(agent_runs_in_flight{job="agents"})'],
    });
    expect(specOf(objects, 'ScaledObject').triggers![0]).toMatchObject({
      metadata: { query: 'sum(agent_runs_in_flight{job="agents"})' },
    });
  });

  it('is checked by a validator that rejects a ScaledObject breaking KEDA’s schema', () => {
    const broken = structuredClone(findObject(keda, 'ScaledObject'));
    (broken.spec as Spec).minReplicaCount = 'two';
    expect(() => validateKubernetesObject(broken)).toThrow(/minReplicaCount/);
  });
});

describe('scale-in', () => {
  it('waits longer than one drain before removing pods, and removes one per grace period, on the HPA and on KEDA’s', () => {
    const grace = podSpecOf(
      findObject<Deployment>(podsMetric, 'Deployment'),
    ).terminationGracePeriodSeconds!;
    const hpaBehavior = specOf(podsMetric, 'HorizontalPodAutoscaler').behavior as {
      scaleDown: { stabilizationWindowSeconds: number };
    };
    expect(hpaBehavior.scaleDown.stabilizationWindowSeconds).toBeGreaterThan(grace);
    expect(hpaBehavior).toEqual({
      scaleDown: {
        stabilizationWindowSeconds: 300,
        policies: [{ type: 'Pods', value: 1, periodSeconds: grace }],
      },
    });
    expect(specOf(keda, 'ScaledObject').advanced).toEqual({
      horizontalPodAutoscalerConfig: { behavior: hpaBehavior },
    });
  });

  it('follows the drain of values-production.yaml, as the TypeScript arithmetic computes it', async () => {
    const objects = await render({ valuesFiles: [PRODUCTION_FILE] });
    const values = mergeValues(chartDefaults(), readYaml(PRODUCTION_FILE));
    const behavior = specOf(objects, 'HorizontalPodAutoscaler').behavior;
    expect(behavior).toEqual(expectedBehavior(values));
    const grace = podSpecOf(
      findObject<Deployment>(objects, 'Deployment'),
    ).terminationGracePeriodSeconds!;
    expect(
      (behavior as { scaleDown: { stabilizationWindowSeconds: number } }).scaleDown
        .stabilizationWindowSeconds,
    ).toBeGreaterThan(grace);
  });

  it('takes a window, pods and period of the operator’s own', async () => {
    const set = [
      ...PODS_METRIC,
      'autoscaling.scaleDown.stabilizationWindowSeconds=900',
      'autoscaling.scaleDown.pods=2',
      'autoscaling.scaleDown.periodSeconds=120',
    ];
    const objects = await render({ set });
    expect(specOf(objects, 'HorizontalPodAutoscaler').behavior).toEqual({
      scaleDown: {
        stabilizationWindowSeconds: 900,
        policies: [{ type: 'Pods', value: 2, periodSeconds: 120 }],
      },
    });
  });
});

describe('the release notes', () => {
  it('say how the release scales and how gently it scales in', async () => {
    const result = await helm([
      'install',
      'agent-service',
      CHART_DIR,
      '--dry-run=client',
      ...[...KEDA, ...DELETION_COST].flatMap((pair) => ['--set', pair]),
    ]);
    expect(result.exitCode).toBe(0);
    const notes = result.stdout.slice(result.stdout.indexOf('NOTES:'));
    expect(notes).toContain(
      'by KEDA (ScaledObject agent-service), on agent_runs_in_flight: 5 runs per pod',
    );
    expect(notes).toContain('Scale-in waits 300 s and removes at most 1 pod(s) every 32 s');
    expect(notes).toContain('pod-deletion-cost follows its runs in flight');
  });
});

describe('the chart refuses', () => {
  it.each([
    {
      what: 'KEDA without a Prometheus to query',
      set: KEDA.slice(0, 2),
      error: /autoscaling.keda.serverAddress is required/,
    },
    {
      what: 'KEDA without autoscaling.enabled',
      set: KEDA.slice(1),
      error: /need autoscaling.enabled/,
    },
    {
      what: 'the Pods metric without autoscaling.enabled',
      set: PODS_METRIC.slice(1),
      error: /need autoscaling.enabled/,
    },
    {
      what: 'KEDA and the Pods metric together',
      set: [...KEDA, 'autoscaling.podsMetric.enabled=true'],
      error: /exclude each other/,
    },
    {
      what: 'KEDA without metrics',
      set: [...KEDA, 'config.metricsEnabled=false'],
      error: /needs config.metricsEnabled/,
    },
    {
      what: 'the Pods metric without metrics',
      set: [...PODS_METRIC, 'config.metricsEnabled=false'],
      error: /needs config.metricsEnabled/,
    },
  ])('$what', async ({ set, error }) => {
    const result = await helm(templateArgs({ set }));
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(error);
  });

  it('no autoscaler metric at all, naming the ones it takes', async () => {
    const set = ['autoscaling.enabled=true', 'autoscaling.targetCPUUtilizationPercentage=null'];
    const result = await helm(templateArgs({ set }));
    expect(result.stderr).toMatch(/autoscaling needs a metric.*podsMetric or autoscaling.keda/);
  });
});

describe('the pod deletion cost', () => {
  it('is off by default: no Role, no token, no POD_ variables', () => {
    expect(kinds(byDefault)).not.toContain('Role');
    expect(kinds(byDefault)).not.toContain('RoleBinding');
    expect(
      podSpecOf(findObject<Deployment>(byDefault, 'Deployment')).automountServiceAccountToken,
    ).toBe(false);
    expect(
      containerOf(byDefault)
        .env!.map((variable) => variable.name)
        .filter((name) => name.startsWith('POD_')),
    ).toEqual([]);
  });

  it('gets a Role that may get and patch pods in the release’s namespace, and nothing more', () => {
    for (const object of deletionCost) validateKubernetesObject(object);
    const role = findObject(deletionCost, 'Role');
    expect(role.metadata?.namespace).toBeUndefined();
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'patch'] }]);
  });

  it('binds that Role to the pods’ ServiceAccount', () => {
    const binding = findObject(deletionCost, 'RoleBinding');
    const serviceAccount = findObject(deletionCost, 'ServiceAccount');
    expect(podSpecOf(findObject<Deployment>(deletionCost, 'Deployment')).serviceAccountName).toBe(
      serviceAccount.metadata!.name,
    );
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: findObject(deletionCost, 'Role').metadata!.name,
    });
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: serviceAccount.metadata!.name, namespace: 'default' },
    ]);
  });

  it('mounts the service account token in the pods, and only then', () => {
    expect(
      podSpecOf(findObject<Deployment>(deletionCost, 'Deployment')).automountServiceAccountToken,
    ).toBe(true);
  });

  it('sets POD_DELETION_COST, and POD_NAME and POD_NAMESPACE from the downward API', () => {
    const env = containerOf(deletionCost).env!;
    const podVariables = env.filter((variable) => variable.name.startsWith('POD_'));
    expect(podVariables).toEqual([
      { name: 'POD_DELETION_COST', value: 'true' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    ]);
  });

  it('gives the service only variables it reads, and an environment its config loader accepts', () => {
    const env = effectiveEnv(containerOf(deletionCost), deletionCost);
    expect([...env.keys()].filter((name) => !APP_ENV_VARIABLES.includes(name))).toEqual([]);
    const fromKubernetes: Record<string, string> = {
      DATABASE_URL: 'postgres://agents:secret@db:5432/agents',
      REDIS_URL: 'redis://redis:6379',
      AUTH_JWT_SECRET: 'secret',
      POD_NAME: 'agent-service-5d9c7f-x2x7q',
      POD_NAMESPACE: 'default',
    };
    const literal = {
      ...Object.fromEntries([...env].map(([name, value]) => [name, value ?? fromKubernetes[name]])),
      // What the kubelet sets in every pod.
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
    };
    expect(loadAppConfig(literal).podDeletionCost).toEqual({
      podName: 'agent-service-5d9c7f-x2x7q',
      podNamespace: 'default',
    });
  });

  it('passes helm lint --strict with everything on', async () => {
    const result = await helm([
      'lint',
      '--strict',
      CHART_DIR,
      ...[...KEDA, ...DELETION_COST].flatMap((pair) => ['--set', pair]),
    ]);
    expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
    expect(result.exitCode).toBe(0);
  });
});
