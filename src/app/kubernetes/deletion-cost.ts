/** The annotation the ReplicaSet controller reads at scale-in: pods with the lowest cost go first. */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

/**
 * The deletion cost of a pod with `runsInFlight` runs: 0 when idle, else the largest power of two
 * not above it (1, 2, 4, 8…). Close enough to order pods by their work, coarse enough that a busy
 * pod's annotation changes only when its load doubles or halves, not with every run.
 *
 * @example
 * deletionCostFor(0); // 0
 * deletionCostFor(5); // 4
 */
export function deletionCostFor(runsInFlight: number): number {
  if (!Number.isFinite(runsInFlight) || runsInFlight < 1) return 0;
  // Deletion costs are int32: cap far below it.
  return 2 ** Math.min(30, Math.floor(Math.log2(runsInFlight)));
}
