import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
import { ensureKubernetesTools } from 'dev-services';
import { helmTemplate, kustomize, REPO_ROOT } from './support/kubernetes-cli';
import {
  findObject,
  parseManifests,
  validateKubernetesObject,
  type KubernetesObject,
} from './support/kubernetes-objects';
import { onlyContainer, podSpecOf, type Deployment, type PodSpec } from './support/pod-spec';

/** The first call fetches helm and kubectl (tens of MB) on a fresh machine. */
const FETCH_TIMEOUT_MS = 300_000;

const K8S_DIR = join(REPO_ROOT, 'k8s');

/** Every file under `dir`, recursively, relative to the repository root. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(REPO_ROOT, path)];
  });
}

const KUSTOMIZATIONS = filesUnder(K8S_DIR).filter((file) => file.endsWith('/kustomization.yaml'));
const MANIFESTS = filesUnder(K8S_DIR).filter((file) => !KUSTOMIZATIONS.includes(file));

/** The files and directories a kustomization lists as resources, relative to the repository root. */
function resourcesOf(kustomization: string): string[] {
  const { resources = [] } = parse(readFileSync(join(REPO_ROOT, kustomization), 'utf8')) as {
    resources?: string[];
  };
  return resources.map((resource) =>
    relative(REPO_ROOT, join(REPO_ROOT, dirname(kustomization), resource)),
  );
}

/** The chart's default render, the base's and the dev overlay's, rendered once for the suite. */
let chart: KubernetesObject[];
let base: KubernetesObject[];
let dev: KubernetesObject[];

function specOf(objects: KubernetesObject[], kind: string, name?: string): unknown {
  return findObject(objects, kind, name).spec;
}

/** The pod spec with generated Secret names (kustomize's hash suffix) put back to the names they came from. */
function withoutHashSuffixes(pod: PodSpec): PodSpec {
  return JSON.parse(
    JSON.stringify(pod).replace(/"name":"(agent-service)-[a-z0-9]{10}"/g, '"name":"$1"'),
  ) as PodSpec;
}

beforeAll(async () => {
  await ensureKubernetesTools();
  chart = parseManifests(await helmTemplate(), 'helm template');
  base = parseManifests(await kustomize('k8s/base'), 'kubectl kustomize k8s/base');
  dev = parseManifests(await kustomize('k8s/overlays/dev'), 'kubectl kustomize k8s/overlays/dev');
}, FETCH_TIMEOUT_MS);

describe('the files under k8s/', () => {
  it('are YAML manifests of valid Kubernetes objects, each one', () => {
    expect(MANIFESTS.length).toBeGreaterThan(0);
    for (const file of MANIFESTS) {
      expect(file).toMatch(/\.yaml$/);
      const objects = parseManifests(readFileSync(join(REPO_ROOT, file), 'utf8'), file);
      expect([file, objects.length > 0]).toEqual([file, true]);
      for (const object of objects) validateKubernetesObject(object);
    }
  });

  it('are all listed by a kustomization, and every listed resource exists', () => {
    const listed = KUSTOMIZATIONS.flatMap(resourcesOf);
    expect(MANIFESTS.filter((file) => !listed.includes(file))).toEqual([]);
    const kustomizationDirs = KUSTOMIZATIONS.map(dirname);
    expect(
      listed.filter(
        (resource) => !MANIFESTS.includes(resource) && !kustomizationDirs.includes(resource),
      ),
    ).toEqual([]);
  });
});

describe('kubectl kustomize', () => {
  it('renders k8s/base into valid Kubernetes objects', () => {
    expect(base.map((o) => o.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
    ]);
    for (const object of base) validateKubernetesObject(object);
  });

  it('renders k8s/overlays/dev into valid Kubernetes objects', () => {
    for (const object of dev) validateKubernetesObject(object);
    expect(
      dev
        .filter((o) => o.kind === 'Deployment')
        .map((o) => o.metadata!.name)
        .sort(),
    ).toEqual(['agent-postgres', 'agent-redis', 'agent-service']);
  });
});

describe('k8s/base', () => {
  it('runs the same pod as the chart’s default render', () => {
    expect(podSpecOf(findObject(base, 'Deployment'))).toEqual(
      podSpecOf(findObject(chart, 'Deployment')),
    );
  });

  it('has the chart’s replicas, rolling update strategy and selector', () => {
    const { replicas, strategy, selector } = findObject<Deployment>(chart, 'Deployment').spec;
    expect(findObject<Deployment>(base, 'Deployment').spec).toMatchObject({
      replicas,
      strategy,
      selector,
    });
  });

  it('has the chart’s ConfigMap data, Service, PodDisruptionBudget and ServiceAccount settings', () => {
    expect(findObject(base, 'ConfigMap').data).toEqual(findObject(chart, 'ConfigMap').data);
    expect(specOf(base, 'Service')).toEqual(specOf(chart, 'Service'));
    expect(specOf(base, 'PodDisruptionBudget')).toEqual(specOf(chart, 'PodDisruptionBudget'));
    expect(findObject(base, 'ServiceAccount').automountServiceAccountToken).toBe(false);
  });

  it('labels the pod template without touching the selector', () => {
    const deployment = findObject<Deployment>(base, 'Deployment');
    expect(deployment.spec.template.metadata.labels['app.kubernetes.io/part-of']).toBe(
      'agent-service',
    );
    expect(deployment.spec.selector.matchLabels['app.kubernetes.io/part-of']).toBeUndefined();
  });
});

describe('k8s/overlays/dev', () => {
  it('runs the base’s pod, with the generated Secret', () => {
    const service = findObject<Deployment>(dev, 'Deployment', 'agent-service');
    expect(withoutHashSuffixes(podSpecOf(service))).toEqual(
      podSpecOf(findObject(base, 'Deployment')),
    );
  });

  it('generates every Secret key the Deployments read', () => {
    for (const deployment of dev.filter((o) => o.kind === 'Deployment')) {
      for (const variable of onlyContainer(podSpecOf(deployment)).env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (!ref) continue;
        const secret = findObject(dev, 'Secret', ref.name);
        expect([variable.name, Object.keys(secret.data as object)]).toEqual([
          variable.name,
          expect.arrayContaining([ref.key]),
        ]);
      }
    }
  });

  it('points DATABASE_URL and REDIS_URL at the overlay’s PostgreSQL and Redis Services', () => {
    const secret = findObject(
      dev,
      'Secret',
      onlyContainer(podSpecOf(findObject(dev, 'Deployment', 'agent-service'))).env!.find(
        (v) => v.name === 'DATABASE_URL',
      )!.valueFrom!.secretKeyRef!.name,
    );
    const decoded = (key: string) =>
      new URL(Buffer.from((secret.data as Record<string, string>)[key], 'base64').toString('utf8'));
    const port = (name: string) =>
      (specOf(dev, 'Service', name) as { ports: Array<{ port: number }> }).ports[0].port;
    const database = decoded('database-url');
    const redis = decoded('redis-url');
    expect([database.protocol, database.hostname, Number(database.port)]).toEqual([
      'postgres:',
      'agent-postgres',
      port('agent-postgres'),
    ]);
    expect([redis.protocol, redis.hostname, Number(redis.port)]).toEqual([
      'redis:',
      'agent-redis',
      port('agent-redis'),
    ]);
  });

  it('runs PostgreSQL 15 and Redis 7', () => {
    expect(onlyContainer(podSpecOf(findObject(dev, 'Deployment', 'agent-postgres'))).image).toMatch(
      /^postgres:15([.-]|$)/,
    );
    expect(onlyContainer(podSpecOf(findObject(dev, 'Deployment', 'agent-redis'))).image).toMatch(
      /^redis:7([.-]|$)/,
    );
  });

  it('runs every pod non-root, without privilege escalation or capabilities, with RuntimeDefault seccomp', () => {
    for (const deployment of dev.filter((o) => o.kind === 'Deployment')) {
      const pod = podSpecOf(deployment);
      expect([deployment.metadata!.name, pod.securityContext]).toEqual([
        deployment.metadata!.name,
        expect.objectContaining({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }),
      ]);
      expect([deployment.metadata!.name, onlyContainer(pod).securityContext]).toEqual([
        deployment.metadata!.name,
        expect.objectContaining({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        }),
      ]);
    }
  });

  it('puts everything in its own namespace, which enforces the restricted pod security standard', () => {
    const namespace = findObject(dev, 'Namespace');
    expect(namespace.metadata!.labels!['pod-security.kubernetes.io/enforce']).toBe('restricted');
    expect(dev.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata!.namespace)).toEqual(
      dev.filter((o) => o.kind !== 'Namespace').map(() => namespace.metadata!.name),
    );
  });
});
