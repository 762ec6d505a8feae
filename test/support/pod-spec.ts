import type { KubernetesObject } from './kubernetes-objects';

/** The parts of a container the deployment checks read. */
export interface Container {
  name: string;
  image: string;
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string; optional?: boolean };
      configMapKeyRef?: unknown;
      fieldRef?: { fieldPath: string };
    };
  }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  ports?: Array<{ name?: string; containerPort: number }>;
  command?: string[];
}

/** An HTTP probe and its timings. */
export interface Probe {
  httpGet?: { path: string; port: string | number };
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
}

/** The parts of a pod spec the checks read. */
export interface PodSpec {
  containers: Container[];
  securityContext?: Record<string, unknown> & { seccompProfile?: { type: string } };
  automountServiceAccountToken?: boolean;
  terminationGracePeriodSeconds?: number;
  serviceAccountName?: string;
  volumes?: Array<{ name: string; emptyDir?: unknown }>;
  topologySpreadConstraints?: unknown[];
}

/** A Deployment, as far as the checks read it. */
export interface Deployment extends KubernetesObject {
  spec: {
    replicas?: number;
    strategy?: {
      type: string;
      rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string };
    };
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: PodSpec;
    };
  };
}

/** The pod spec of a Deployment or a Pod. */
export function podSpecOf(object: KubernetesObject): PodSpec {
  if (object.kind === 'Pod') return object.spec as PodSpec;
  return (object as Deployment).spec.template.spec;
}

/** The one container of a pod spec; the service's pods have exactly one. */
export function onlyContainer(spec: PodSpec): Container {
  if (spec.containers.length !== 1)
    throw new Error(`expected one container, found ${spec.containers.length}`);
  return spec.containers[0];
}

/**
 * The literal environment a container gets: the data of the ConfigMaps it names in `envFrom`
 * (looked up in `objects`), then its `env` values, which win. Variables from secrets map to
 * `undefined`: their names are known, their values are not.
 */
export function effectiveEnv(
  container: Container,
  objects: KubernetesObject[],
): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef)
      throw new Error(`container ${container.name}: only configMapRef is expected in envFrom`);
    const configMap = objects.find(
      (o) => o.kind === 'ConfigMap' && o.metadata?.name === source.configMapRef!.name,
    );
    if (!configMap)
      throw new Error(
        `container ${container.name}: no ConfigMap ${source.configMapRef.name} among the objects`,
      );
    for (const [name, value] of Object.entries((configMap.data ?? {}) as Record<string, string>))
      env.set(name, value);
  }
  for (const variable of container.env ?? []) env.set(variable.name, variable.value);
  return env;
}

/** True when every label of `selector` is on `labels`. */
export function selects(
  selector: Record<string, string>,
  labels: Record<string, string> | undefined,
): boolean {
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}
