import { shutdownTimings, type ShutdownTimingInputs } from './shutdown-timings';

/** Kubernetes' own default scale-down stabilization window, in seconds: the derived one is never shorter. */
export const DEFAULT_STABILIZATION_SECONDS = 300;
/** The API's largest stabilization window, in seconds. */
export const MAX_STABILIZATION_SECONDS = 3600;
/** The API's largest policy period, in seconds. */
export const MAX_POLICY_PERIOD_SECONDS = 1800;

/** The chart's `autoscaling.scaleDown` values; null means derived from the shutdown inputs. */
export interface ScaleDownInputs {
  stabilizationWindowSeconds: number | null;
  pods: number;
  periodSeconds: number | null;
}

/** The `behavior.scaleDown` of an autoscaling/v2 HPA (the chart's, or the one KEDA makes). */
export interface ScaleDownBehavior {
  stabilizationWindowSeconds: number;
  policies: Array<{ type: 'Pods'; value: number; periodSeconds: number }>;
}

/**
 * The chart's scale-in behavior. A removed pod drains for up to its grace period while its runs
 * end or move to the pods that stay, so the window (twice the grace period, between 300 and
 * 3600 s) outlasts a drain, and `pods` go per grace period (at most 1800 s). The Helm chart
 * computes the same in `_helpers.tpl`; a test renders the chart and compares.
 *
 * @example
 * scaleDownBehavior({ preStopSeconds: 5, drainSeconds: 300, saveMarginSeconds: 20, exitMarginSeconds: 5 },
 *   { stabilizationWindowSeconds: null, pods: 1, periodSeconds: null });
 * // { stabilizationWindowSeconds: 660, policies: [{ type: 'Pods', value: 1, periodSeconds: 330 }] }
 */
export function scaleDownBehavior(
  shutdown: ShutdownTimingInputs,
  scaleDown: ScaleDownInputs,
): ScaleDownBehavior {
  const grace = shutdownTimings(shutdown).terminationGracePeriodSeconds;
  const derivedWindow = Math.min(
    MAX_STABILIZATION_SECONDS,
    Math.max(DEFAULT_STABILIZATION_SECONDS, 2 * grace),
  );
  return {
    stabilizationWindowSeconds: scaleDown.stabilizationWindowSeconds ?? derivedWindow,
    policies: [
      {
        type: 'Pods',
        value: scaleDown.pods,
        periodSeconds: scaleDown.periodSeconds ?? Math.min(MAX_POLICY_PERIOD_SECONDS, grace),
      },
    ],
  };
}
