import { APP_ENV_VARIABLES, loadAppConfig } from '../src/app/config/app-config';
import { ensureKubernetesTools } from 'dev-services';
import { CHART_DIR, helm, helmTemplate, type RenderOptions } from './support/kubernetes-cli';
import {
  findObject,
  parseManifests,
  validateKubernetesObject,
  type KubernetesObject,
} from './support/kubernetes-objects';
import {
  effectiveEnv,
  onlyContainer,
  podSpecOf,
  selects,
  type Deployment,
} from './support/pod-spec';

/** The first call fetches helm and kubectl (tens of MB) on a fresh machine. */
const FETCH_TIMEOUT_MS = 300_000;

const PRODUCTION = { valuesFiles: [`${CHART_DIR}/values-production.yaml`] };

let byDefault: KubernetesObject[];
let production: KubernetesObject[];

async function render(options: RenderOptions = {}): Promise<KubernetesObject[]> {
  return parseManifests(await helmTemplate(options), 'helm template');
}

function deploymentOf(objects: KubernetesObject[]): Deployment {
  return findObject<Deployment>(objects, 'Deployment');
}

beforeAll(async () => {
  await ensureKubernetesTools();
  [byDefault, production] = await Promise.all([render(), render(PRODUCTION)]);
}, FETCH_TIMEOUT_MS);

describe('helm lint', () => {
  it('passes --strict with the default values', async () => {
    const result = await helm(['lint', '--strict', CHART_DIR]);
    expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
    expect(result.exitCode).toBe(0);
  });

  it('passes --strict with values-production.yaml', async () => {
    const result = await helm([
      'lint',
      '--strict',
      CHART_DIR,
      '--values',
      `${CHART_DIR}/values-production.yaml`,
    ]);
    expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
    expect(result.exitCode).toBe(0);
  });
});

describe('the objects helm template renders', () => {
  it('are all valid Kubernetes objects with the default values, test hook included', () => {
    expect(byDefault.map((o) => o.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'Pod',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
    ]);
    for (const object of byDefault) validateKubernetesObject(object);
  });

  it('are all valid Kubernetes objects with values-production.yaml, the autoscaler included', () => {
    expect(production.map((o) => o.kind)).toContain('HorizontalPodAutoscaler');
    for (const object of production) validateKubernetesObject(object);
  });

  it('are checked by a validator that rejects a Deployment whose containerPort is a string', () => {
    const broken = structuredClone(deploymentOf(byDefault));
    (
      broken.spec.template.spec.containers[0].ports![0] as { containerPort: unknown }
    ).containerPort = '3000';
    expect(() => validateKubernetesObject(broken)).toThrow(/containerPort must be integer/);
  });

  it('are checked by a validator that fails on a kind it has no model for', () => {
    expect(() =>
      validateKubernetesObject({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
      }),
    ).toThrow(/no model/);
  });
});

describe('the Deployment', () => {
  it('runs at least two replicas without the autoscaler, and leaves the count to the autoscaler with it', () => {
    expect(deploymentOf(byDefault).spec.replicas).toBeGreaterThanOrEqual(2);
    expect(deploymentOf(production).spec.replicas).toBeUndefined();
  });

  it('rolls with maxUnavailable 0 and maxSurge 1', () => {
    for (const objects of [byDefault, production]) {
      expect(deploymentOf(objects).spec.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
      });
    }
  });

  it('probes readiness on /health/ready every 5 s and leaves the Service at the first failure', () => {
    const probe = onlyContainer(podSpecOf(deploymentOf(byDefault))).readinessProbe!;
    expect(probe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(probe).toMatchObject({ periodSeconds: 5, failureThreshold: 1 });
    expect(probe.timeoutSeconds).toBeLessThan(probe.periodSeconds!);
  });

  it('probes liveness on /health/live, which stays up during a drain', () => {
    expect(onlyContainer(podSpecOf(deploymentOf(byDefault))).livenessProbe!.httpGet).toEqual({
      path: '/health/live',
      port: 'http',
    });
  });

  it('has a startup probe that allows a minute for boot and migrations', () => {
    const probe = onlyContainer(podSpecOf(deploymentOf(byDefault))).startupProbe!;
    expect(probe.httpGet?.path).toMatch(/^\/health\/(live|ready)$/);
    expect(probe.periodSeconds! * probe.failureThreshold!).toBe(60);
  });

  it('runs as user 1000, non-root, with RuntimeDefault seccomp, no privilege escalation, no capabilities and a read-only root', () => {
    const pod = podSpecOf(deploymentOf(byDefault));
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      fsGroup: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(onlyContainer(pod).securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('mounts an emptyDir at /tmp, the only writable path', () => {
    const pod = podSpecOf(deploymentOf(byDefault));
    const mount = onlyContainer(pod).volumeMounts!.find((m) => m.mountPath === '/tmp')!;
    expect(pod.volumes!.find((v) => v.name === mount.name)).toEqual({
      name: mount.name,
      emptyDir: {},
    });
  });

  it('mounts no service account token, in the pod or through its ServiceAccount', () => {
    expect(podSpecOf(deploymentOf(byDefault)).automountServiceAccountToken).toBe(false);
    expect(findObject(byDefault, 'ServiceAccount').automountServiceAccountToken).toBe(false);
  });

  it('sets requests and limits of CPU and memory', () => {
    const { resources } = onlyContainer(podSpecOf(deploymentOf(byDefault)));
    expect(Object.keys(resources!.requests!).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(resources!.limits!).sort()).toEqual(['cpu', 'memory']);
  });

  it('spreads its pods over nodes by default, softly', () => {
    expect(podSpecOf(deploymentOf(byDefault)).topologySpreadConstraints).toEqual([
      expect.objectContaining({
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        maxSkew: 1,
      }),
    ]);
  });

  it('reads DATABASE_URL, REDIS_URL and AUTH_JWT_SECRET from the release Secret by default', () => {
    const env = onlyContainer(podSpecOf(deploymentOf(byDefault))).env!;
    const refs = Object.fromEntries(
      env.filter((v) => v.valueFrom?.secretKeyRef).map((v) => [v.name, v.valueFrom!.secretKeyRef]),
    );
    expect(refs).toEqual({
      DATABASE_URL: { name: 'agent-service', key: 'database-url' },
      REDIS_URL: { name: 'agent-service', key: 'redis-url' },
      AUTH_JWT_SECRET: { name: 'agent-service', key: 'auth-jwt-secret' },
    });
  });

  it('runs on PostgreSQL alone with config.signals postgres: SIGNALS=postgres, no REDIS_URL, and an environment the config loader accepts', async () => {
    const objects = await render({ set: ['config.signals=postgres'] });
    const container = onlyContainer(podSpecOf(deploymentOf(objects)));
    expect(container.env!.map((entry) => entry.name)).not.toContain('REDIS_URL');
    const env = effectiveEnv(container, objects);
    const secrets: Record<string, string> = {
      DATABASE_URL: 'postgres://agents:secret@db:5432/agents',
      AUTH_JWT_SECRET: 'secret',
    };
    const config = loadAppConfig(
      Object.fromEntries([...env].map(([name, value]) => [name, value ?? secrets[name]])),
    );
    expect([config.signals, config.redisUrl, config.redisCluster]).toEqual([
      'postgres',
      undefined,
      false,
    ]);
    expect(
      findObject<KubernetesObject & { data: Record<string, string> }>(byDefault, 'ConfigMap').data,
    ).not.toHaveProperty('SIGNALS');
  });

  it('names a Redis Cluster with config.redisCluster, and refuses it beside config.signals postgres', async () => {
    const objects = await render({ set: ['config.redisCluster=true'] });
    const dataOf = (rendered: KubernetesObject[]) =>
      findObject<KubernetesObject & { data: Record<string, string> }>(rendered, 'ConfigMap').data;
    expect(dataOf(objects).REDIS_CLUSTER).toBe('true');
    expect(dataOf(byDefault)).not.toHaveProperty('REDIS_CLUSTER');
    const env = effectiveEnv(onlyContainer(podSpecOf(deploymentOf(objects))), objects);
    const secrets: Record<string, string> = {
      DATABASE_URL: 'postgres://agents:secret@db:5432/agents',
      REDIS_URL: 'redis://redis-node-1:6379',
      AUTH_JWT_SECRET: 'secret',
    };
    expect(
      loadAppConfig(
        Object.fromEntries([...env].map(([name, value]) => [name, value ?? secrets[name]])),
      ).redisCluster,
    ).toBe(true);
    await expect(
      render({ set: ['config.redisCluster=true', 'config.signals=postgres'] }),
    ).rejects.toThrow(/config.redisCluster needs config.signals redis/);
    await expect(render({ set: ['config.signals=kafka'] })).rejects.toThrow(/signals/);
  });

  it('reads OPENAI_API_KEY from a Secret only when one is named', () => {
    const secretNames = (objects: KubernetesObject[]) =>
      onlyContainer(podSpecOf(deploymentOf(objects)))
        .env!.filter((v) => v.valueFrom?.secretKeyRef)
        .map((v) => v.name);
    expect(secretNames(byDefault)).not.toContain('OPENAI_API_KEY');
    expect(secretNames(production)).toContain('OPENAI_API_KEY');
  });

  it('sets only environment variables the service reads, with the default and the production values', () => {
    for (const objects of [byDefault, production]) {
      const names = [
        ...effectiveEnv(onlyContainer(podSpecOf(deploymentOf(objects))), objects).keys(),
      ];
      expect(names.filter((name) => !APP_ENV_VARIABLES.includes(name))).toEqual([]);
    }
  });

  it('gives the service an environment its config loader accepts, with the default and the production values', () => {
    // Stand-ins for what the Secrets hold.
    const secrets = {
      DATABASE_URL: 'postgres://agents:secret@db:5432/agents',
      REDIS_URL: 'redis://redis:6379',
      AUTH_JWT_SECRET: 'secret',
      OPENAI_API_KEY: 'key',
    };
    for (const objects of [byDefault, production]) {
      const env = effectiveEnv(onlyContainer(podSpecOf(deploymentOf(objects))), objects);
      const literal = Object.fromEntries(
        [...env].map(([name, value]) => [name, value ?? secrets[name as keyof typeof secrets]]),
      );
      const config = loadAppConfig(literal);
      expect([
        config.nodeEnv,
        config.port,
        config.drainTimeoutMs,
        config.shutdownTimeoutMs,
      ]).toEqual([
        'production',
        3000,
        Number(literal.SHUTDOWN_DRAIN_TIMEOUT_MS),
        Number(literal.SHUTDOWN_TIMEOUT_MS),
      ]);
    }
  });

  it('appends extraEnv after the chart’s own variables', async () => {
    const objects = await render({
      set: ['extraEnv[0].name=SYSTEM_PROMPT', 'extraEnv[0].value=be-brief'],
    });
    expect(onlyContainer(podSpecOf(deploymentOf(objects))).env!.at(-1)).toEqual({
      name: 'SYSTEM_PROMPT',
      value: 'be-brief',
    });
  });

  it('passes the per-user limits to the service, with its defaults', () => {
    const data = findObject<KubernetesObject & { data: Record<string, string> }>(
      byDefault,
      'ConfigMap',
    ).data;
    expect(data).toMatchObject({
      MAX_RUNS_PER_USER: '10',
      MAX_MESSAGES_PER_REQUEST: '100',
      MAX_HISTORY_MESSAGES: '10000',
      MAX_THREAD_BYTES: '8388608',
      RATE_LIMIT_PER_MINUTE: '6000',
    });
    expect(loadAppConfig({ ...data, AUTH_JWT_SECRET: 'secret' }).limits).toEqual(
      loadAppConfig({ AUTH_JWT_SECRET: 'secret' }).limits,
    );
  });

  it('passes AUTH_JWKS_URL, AUTH_ISSUER and AUTH_AUDIENCE only when they are set', async () => {
    const objects = await render({
      set: [
        'config.auth.jwksUrl=https://idp.example.test/jwks.json',
        'config.auth.issuer=https://idp.example.test/',
        'config.auth.audience=agents',
      ],
    });
    const dataOf = (rendered: KubernetesObject[]) =>
      findObject<KubernetesObject & { data: Record<string, string> }>(rendered, 'ConfigMap').data;
    expect(dataOf(objects)).toMatchObject({
      AUTH_JWKS_URL: 'https://idp.example.test/jwks.json',
      AUTH_ISSUER: 'https://idp.example.test/',
      AUTH_AUDIENCE: 'agents',
    });
    expect(Object.keys(dataOf(byDefault)).filter((name) => name.startsWith('AUTH_'))).toEqual([
      'AUTH_MAX_TOKEN_AGE_S',
    ]);
  });

  it('passes AGENT_VERSION only when config.agentVersion is set, leaving the service its default otherwise', async () => {
    const dataOf = (rendered: KubernetesObject[]) =>
      findObject<KubernetesObject & { data: Record<string, string> }>(rendered, 'ConfigMap').data;
    const data = dataOf(await render({ set: ['config.agentVersion=1.4.2'] }));
    expect(data).toMatchObject({ AGENT_VERSION: '1.4.2' });
    expect(loadAppConfig({ ...data, AUTH_JWT_SECRET: 'secret' }).agentVersion).toBe('1.4.2');
    expect(dataOf(byDefault)).not.toHaveProperty('AGENT_VERSION');
  });

  it('passes the token age limit and the HTTP server timeouts, in seconds not minutes', () => {
    const data = findObject<KubernetesObject & { data: Record<string, string> }>(
      byDefault,
      'ConfigMap',
    ).data;
    expect(data).toMatchObject({
      AUTH_MAX_TOKEN_AGE_S: '86400',
      HTTP_HEADERS_TIMEOUT_MS: '10000',
      HTTP_REQUEST_TIMEOUT_MS: '30000',
      HTTP_KEEPALIVE_TIMEOUT_MS: '65000',
    });
    expect(() => loadAppConfig({ ...data, AUTH_JWT_SECRET: 'x' })).not.toThrow();
  });

  it('makes the HS256 secret optional only when a JWKS is set, so a JWKS-only release needs no such key', async () => {
    const secretRef = (objects: KubernetesObject[]) =>
      onlyContainer(podSpecOf(deploymentOf(objects))).env!.find(
        (entry) => entry.name === 'AUTH_JWT_SECRET',
      )!.valueFrom!.secretKeyRef!;
    const withJwks = await render({
      set: ['config.auth.jwksUrl=https://idp.example.test/jwks.json'],
    });
    expect(secretRef(withJwks).optional).toBe(true);
    expect(secretRef(byDefault).optional).toBeUndefined();
  });

  it('rolls its pods when the configuration changes, through the checksum/config annotation', async () => {
    const checksum = (objects: KubernetesObject[]) =>
      deploymentOf(objects).spec.template.metadata.annotations!['checksum/config'];
    const changed = await render({ set: ['config.leaseTtlMs=20000'] });
    expect(checksum(byDefault)).toMatch(/^[0-9a-f]{64}$/);
    expect(checksum(changed)).not.toBe(checksum(byDefault));
  });
});

describe('the Service, the PodDisruptionBudget and the autoscaler', () => {
  it('select the Deployment’s pods', () => {
    const podLabels = deploymentOf(byDefault).spec.template.metadata.labels;
    expect(
      selects(
        (findObject(byDefault, 'Service').spec as { selector: Record<string, string> }).selector,
        podLabels,
      ),
    ).toBe(true);
    const pdb = findObject(byDefault, 'PodDisruptionBudget').spec as {
      selector: { matchLabels: Record<string, string> };
    };
    expect(selects(pdb.selector.matchLabels, podLabels)).toBe(true);
  });

  it('let at most one pod be evicted at a time', () => {
    expect(findObject(byDefault, 'PodDisruptionBudget').spec).toMatchObject({ maxUnavailable: 1 });
  });

  it('scale the Deployment between minReplicas and maxReplicas, on autoscaling/v2', () => {
    const hpa = findObject(production, 'HorizontalPodAutoscaler');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec).toMatchObject({
      scaleTargetRef: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: deploymentOf(production).metadata!.name,
      },
      minReplicas: 3,
      maxReplicas: 12,
    });
  });

  it('include no autoscaler by default', () => {
    expect(byDefault.some((o) => o.kind === 'HorizontalPodAutoscaler')).toBe(false);
  });
});

describe('the release notes', () => {
  it('print how to reach the service and the shutdown timeline with the computed numbers', async () => {
    const result = await helm(['install', 'agent-service', CHART_DIR, '--dry-run=client']);
    expect(result.exitCode).toBe(0);
    const notes = result.stdout.slice(result.stdout.indexOf('NOTES:'));
    expect(notes).toContain('port-forward svc/agent-service 8080:80');
    expect(notes).toMatch(/^\s+5\s+SIGTERM.*SHUTDOWN_DRAIN_TIMEOUT_MS=20000/m);
    expect(notes).toMatch(/^\s+30\s+the process has exited.*SHUTDOWN_TIMEOUT_MS=25000/m);
    expect(notes).toMatch(/^\s+32\s+terminationGracePeriodSeconds/m);
  });
});
