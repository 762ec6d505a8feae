/**
 * The shutdown numbers of a Kubernetes deployment of the service, all derived from four inputs
 * so that they cannot disagree. The Helm chart computes the same arithmetic in its template
 * (`helm/agent-service/templates/_helpers.tpl`); a test renders the chart and compares.
 *
 * Timeline from the pod's deletion: the preStop hook sleeps while endpoints stop sending traffic;
 * then SIGTERM: readiness fails, in-flight runs drain for `drainSeconds`; runs still going stop at
 * their next safe point and are saved within `saveMarginSeconds`; the process has exited by
 * `SHUTDOWN_TIMEOUT_MS`; `exitMarginSeconds` later the kubelet would SIGKILL.
 */
export interface ShutdownTimingInputs {
  /** preStop sleep before SIGTERM, in seconds (0: none). */
  preStopSeconds: number;
  /** How long in-flight runs may go on after SIGTERM, in seconds. */
  drainSeconds: number;
  /** Time to stop the remaining runs at a safe point and save them, in seconds (≥ 1). */
  saveMarginSeconds: number;
  /** Slack between the service's own hard deadline and the kubelet's SIGKILL, in seconds (≥ 1). */
  exitMarginSeconds: number;
}

export interface ShutdownTimings {
  /** `SHUTDOWN_DRAIN_TIMEOUT_MS`. */
  drainTimeoutMs: number;
  /** `SHUTDOWN_TIMEOUT_MS`: the process has exited by then, counted from SIGTERM. */
  shutdownTimeoutMs: number;
  /** The pod's `terminationGracePeriodSeconds`, counted from the deletion (preStop included). */
  terminationGracePeriodSeconds: number;
}

/**
 * @example
 * shutdownTimings({ preStopSeconds: 5, drainSeconds: 20, saveMarginSeconds: 5, exitMarginSeconds: 2 })
 * // { drainTimeoutMs: 20000, shutdownTimeoutMs: 25000, terminationGracePeriodSeconds: 32 }
 */
export function shutdownTimings(inputs: ShutdownTimingInputs): ShutdownTimings {
  const { preStopSeconds, drainSeconds, saveMarginSeconds, exitMarginSeconds } = inputs;
  for (const [name, value, min] of [
    ['preStopSeconds', preStopSeconds, 0],
    ['drainSeconds', drainSeconds, 0],
    ['saveMarginSeconds', saveMarginSeconds, 1],
    ['exitMarginSeconds', exitMarginSeconds, 1],
  ] as const) {
    if (!Number.isInteger(value) || value < min)
      throw new RangeError(`${name} must be an integer ≥ ${min}, got ${value}`);
  }
  return {
    drainTimeoutMs: drainSeconds * 1000,
    shutdownTimeoutMs: (drainSeconds + saveMarginSeconds) * 1000,
    terminationGracePeriodSeconds:
      preStopSeconds + drainSeconds + saveMarginSeconds + exitMarginSeconds,
  };
}
