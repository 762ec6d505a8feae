/**
 * A Kubernetes API call that failed: no answer in time, a refused connection, or a status other
 * than 2xx (`status` set). 401 and 403 mean the pod's service account lacks the Role the chart
 * creates with `podDeletionCost.enabled`.
 */
export class KubernetesApiError extends Error {
  override readonly name = 'KubernetesApiError';
  readonly code = 'KUBERNETES_API_FAILED';

  constructor(
    message: string,
    /** The HTTP status, when the API answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}
