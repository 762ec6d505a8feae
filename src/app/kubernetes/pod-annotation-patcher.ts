import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KubernetesApiEndpoint } from './in-cluster-api';
import { KubernetesApiError } from './kubernetes-api.error';

/** One patch call may take this long, connection included, in milliseconds. */
export const PATCH_TIMEOUT_MS = 5_000;

/** The most of an error answer kept for the error's message. */
const MAX_ERROR_BODY = 1_024;

/**
 * Sets annotations on one pod through the Kubernetes API: `PATCH /api/v1/namespaces/{ns}/pods/{name}`
 * with a JSON merge patch (`application/merge-patch+json`), which touches only the annotations
 * named. Authenticates with the service account's bearer token, read from its file at each call
 * (the kubelet rotates it), and trusts only the cluster's CA.
 *
 * @example
 * const patcher = new PodAnnotationPatcher(inClusterEndpoint(process.env), 'agents', 'agent-service-5d9c-x2x7q');
 * await patcher.patch({ 'controller.kubernetes.io/pod-deletion-cost': '4' });
 */
export class PodAnnotationPatcher {
  constructor(
    private readonly endpoint: KubernetesApiEndpoint,
    /** The pod's namespace. */
    readonly namespace: string,
    /** The pod's name. */
    readonly podName: string,
    private readonly timeoutMs = PATCH_TIMEOUT_MS,
  ) {}

  /** Merges `annotations` into the pod's; throws a {@link KubernetesApiError} unless the API answers 2xx. */
  async patch(annotations: Record<string, string>): Promise<void> {
    const token = (await readFile(this.endpoint.tokenFile, 'utf8').catch(() => '')).trim();
    if (!token)
      throw new KubernetesApiError(
        `no service account token in ${this.endpoint.tokenFile}: mount it (automountServiceAccountToken)`,
      );
    const url = new URL(
      `/api/v1/namespaces/${encodeURIComponent(this.namespace)}/pods/${encodeURIComponent(this.podName)}`,
      this.endpoint.baseUrl,
    );
    const body = JSON.stringify({ metadata: { annotations } });
    const options: RequestOptions & { ca?: Buffer } = {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/merge-patch+json',
        accept: 'application/json',
        'content-length': Buffer.byteLength(body),
      },
      signal: AbortSignal.timeout(this.timeoutMs),
    };
    if (url.protocol === 'https:' && this.endpoint.caFile)
      options.ca = await readFile(this.endpoint.caFile);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = send(url, options, resolve);
      outgoing.once('error', (error) =>
        reject(new KubernetesApiError(`PATCH ${url.pathname} failed: ${error.message}`)),
      );
      outgoing.end(body);
    });
    const answer = await readAnswer(response);
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      throw new KubernetesApiError(
        `PATCH ${url.pathname} answered ${status}: ${statusMessage(answer)}`,
        status,
      );
    }
  }
}

/** The start of the answer's body (the rest is drained), or what broke it off. */
async function readAnswer(response: IncomingMessage): Promise<string> {
  let text = '';
  try {
    for await (const chunk of response) if (text.length < MAX_ERROR_BODY) text += String(chunk);
  } catch (error) {
    throw new KubernetesApiError(
      `the answer broke off: ${(error as Error).message}`,
      response.statusCode,
    );
  }
  return text.slice(0, MAX_ERROR_BODY);
}

/** The `message` of a Kubernetes `Status` answer, else the text itself. */
function statusMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: the text says it
  }
  return text || '(no body)';
}
