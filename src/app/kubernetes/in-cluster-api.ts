import { readFile } from 'node:fs/promises';

/** Where Kubernetes mounts a pod's service account token, its CA and its namespace. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** How to reach the Kubernetes API from inside a pod. */
export interface KubernetesApiEndpoint {
  /** `https://host:port`, or `http://…` for a local stand-in. */
  baseUrl: string;
  /** The bearer token's file, read again at every call: the kubelet rotates it. */
  tokenFile: string;
  /** The CA bundle that signs the API server's certificate (https only). */
  caFile?: string;
}

/**
 * The API endpoint of the pod's own cluster: `KUBERNETES_SERVICE_HOST` and
 * `KUBERNETES_SERVICE_PORT` (set in every pod), the token and CA of the service account.
 * Throws when the variables are missing: the process does not run in a pod.
 */
export function inClusterEndpoint(
  env: NodeJS.ProcessEnv,
  dir = SERVICE_ACCOUNT_DIR,
): KubernetesApiEndpoint {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    throw new Error(
      'POD_DELETION_COST=true needs the Kubernetes API, which a pod finds through KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT: both must be set (leave POD_DELETION_COST unset outside Kubernetes)',
    );
  }
  return {
    baseUrl: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    tokenFile: `${dir}/token`,
    caFile: `${dir}/ca.crt`,
  };
}

/** The pod's namespace: `POD_NAMESPACE` when given, else the service account's namespace file. */
export async function podNamespace(
  given: string | undefined,
  dir = SERVICE_ACCOUNT_DIR,
): Promise<string> {
  if (given) return given;
  const file = `${dir}/namespace`;
  const namespace = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (!namespace)
    throw new Error(
      `POD_NAMESPACE is unset and ${file} cannot be read: set POD_NAMESPACE from the downward API (fieldRef metadata.namespace)`,
    );
  return namespace;
}
