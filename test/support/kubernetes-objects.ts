import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as parsed from YAML: only the type fields are known. */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

/** The validating model class `kubernetes-models` publishes for one apiVersion and kind. */
type ModelClass = (new (data: unknown) => { validate(): void }) & {
  apiVersion: string;
  kind: string;
};

/**
 * The objects of a multi-document YAML text (a `helm template` or `kubectl kustomize` output, or
 * a manifest file), empty documents left out. Throws on a YAML error, naming `source`.
 */
export function parseManifests(text: string, source: string): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0)
      throw new Error(`${source}: invalid YAML: ${document.errors[0].message}`);
    const value: unknown = document.toJS();
    if (value === null || value === undefined) continue;
    const object = value as KubernetesObject;
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
      throw new Error(
        `${source}: a document without apiVersion and kind: ${JSON.stringify(value).slice(0, 200)}`,
      );
    }
    objects.push(object);
  }
  return objects;
}

/**
 * The packages holding models of custom resources, by API group, each from its CRDs' OpenAPI
 * schemas: the Prometheus operator's (ServiceMonitor, PrometheusRule) and KEDA's (ScaledObject;
 * `@kubernetes-models/keda` 0.4, KEDA 2.10's CRDs, the last release of it that loads with
 * `kubernetes-models` 4) and Argo Rollouts' (AnalysisTemplate, Rollout;
 * `@kubernetes-models/argo-rollouts` 0.3, the last release of it with a CommonJS build, which
 * the model loader's `require` needs). Every other group is Kubernetes' own, in `kubernetes-models`.
 */
const CRD_MODEL_PACKAGES: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
  'argoproj.io': '@kubernetes-models/argo-rollouts',
};

function modelClass(apiVersion: string, kind: string): ModelClass {
  // apiVersion "v1" lives at kubernetes-models/v1, "apps/v1" at kubernetes-models/apps/v1.
  if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) {
    throw new Error(`not a Kubernetes apiVersion/kind: ${apiVersion}/${kind}`);
  }
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const modelPackage = CRD_MODEL_PACKAGES[group] ?? 'kubernetes-models';
  let exported: Record<string, unknown>;
  try {
    // The model's module is named by the object under test: only a runtime require can load it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    exported = require(`${modelPackage}/${apiVersion}/${kind}`) as Record<string, unknown>;
  } catch {
    throw new Error(
      `${modelPackage} has no model for ${apiVersion} ${kind}: an unknown kind cannot be validated`,
    );
  }
  const model = exported[kind] as ModelClass | undefined;
  if (!model || model.apiVersion !== apiVersion || model.kind !== kind) {
    throw new Error(`${modelPackage}/${apiVersion}/${kind} does not export the model ${kind}`);
  }
  return model;
}

/**
 * Secret data as the API server decodes it: kustomize wraps long base64 values over several
 * lines, and Go's base64 decoder skips line breaks, but the validator's `byte` format does not.
 */
function asApiServerReadsIt(object: KubernetesObject): KubernetesObject {
  if (
    object.apiVersion !== 'v1' ||
    object.kind !== 'Secret' ||
    typeof object.data !== 'object' ||
    object.data === null
  )
    return object;
  const data = Object.entries(object.data as Record<string, unknown>).map(([key, value]) => [
    key,
    typeof value === 'string' ? value.replace(/[\r\n]/g, '') : value,
  ]);
  return { ...object, data: Object.fromEntries(data) };
}

/**
 * Checks an object against the OpenAPI schema of its apiVersion and kind, through
 * `kubernetes-models` (and, for the Prometheus operator's and KEDA's kinds, the CRDs' schemas in
 * `@kubernetes-models/prometheus-operator` and `@kubernetes-models/keda`). Throws when the object breaks the schema (e.g. a string where an integer
 * belongs), and when there is no model for its kind: an object that cannot be checked fails.
 */
export function validateKubernetesObject(object: KubernetesObject): void {
  const Model = modelClass(object.apiVersion, object.kind);
  const where = `${object.apiVersion} ${object.kind} ${object.metadata?.name ?? '(no name)'}`;
  try {
    new Model(asApiServerReadsIt(object)).validate();
  } catch (error) {
    throw new Error(`${where} is invalid: ${(error as Error).message}`);
  }
}

/** The one object of `kind` (and `name`, when given); throws when there is none or more than one. */
export function findObject<T = KubernetesObject>(
  objects: KubernetesObject[],
  kind: string,
  name?: string,
): T {
  const found = objects.filter(
    (object) => object.kind === kind && (name === undefined || object.metadata?.name === name),
  );
  if (found.length !== 1)
    throw new Error(`expected one ${kind}${name ? ` named ${name}` : ''}, found ${found.length}`);
  return found[0] as T;
}
