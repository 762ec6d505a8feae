import { deletionCostFor, POD_DELETION_COST_ANNOTATION } from './deletion-cost';
import type { KubernetesApiError } from './kubernetes-api.error';

/** The timers the updater waits with; tests hand in their own to run each step on demand. */
export interface UpdaterTimers {
  setTimeout(callback: () => Promise<void>, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers, unref'd: a pending check never keeps the process alive. */
const NODE_TIMERS: UpdaterTimers = {
  setTimeout: (callback, ms) => setTimeout(() => void callback(), ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** How the updater paces itself. */
export interface PodDeletionCostUpdaterOptions {
  /** How often runs in flight are read, and so the least time between two patches, in ms. @default 10000 */
  intervalMs?: number;
  /** The wait after a failed patch, doubled after each further failure, in ms. @default 10000 */
  backoffInitialMs?: number;
  /** The longest wait after failed patches, in ms. @default 300000 */
  backoffMaxMs?: number;
  /** @default Node's timers, unref'd */
  timers?: UpdaterTimers;
}

/** Where the updater writes: a pod's annotations. */
export interface AnnotationTarget {
  patch(annotations: Record<string, string>): Promise<void>;
}

/** Where the updater says what it did. */
export interface UpdaterLog {
  debug(message: Record<string, unknown>): void;
  log(message: Record<string, unknown>): void;
  warn(message: Record<string, unknown>): void;
}

/**
 * Keeps a pod's `controller.kubernetes.io/pod-deletion-cost` close to its runs in flight, so
 * that a scale-in removes the least busy pods first. Reads the count every `intervalMs` and
 * patches only when its bucket ({@link deletionCostFor}) differs from the value last written:
 * never a patch per run, at most one per interval. A failed patch is retried after a wait
 * that doubles up to `backoffMaxMs`. The first check writes the value even if unchanged, since
 * the annotation may be left from the container's previous life.
 *
 * @example
 * const updater = new PodDeletionCostUpdater(() => telemetry.runsInFlight, patcher, logger);
 * updater.start();
 * // at shutdown
 * await updater.stop();
 */
export class PodDeletionCostUpdater {
  private readonly intervalMs: number;
  private readonly backoffInitialMs: number;
  private readonly backoffMaxMs: number;
  private readonly timers: UpdaterTimers;
  /** The cost the pod carries, as far as this process wrote it. */
  private written?: number;
  private failures = 0;
  private timer?: unknown;
  private stepping?: Promise<void>;
  private running = false;

  constructor(
    private readonly runsInFlight: () => number,
    private readonly target: AnnotationTarget,
    private readonly logger: UpdaterLog,
    options: PodDeletionCostUpdaterOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 10_000;
    this.backoffInitialMs = options.backoffInitialMs ?? 10_000;
    this.backoffMaxMs = options.backoffMaxMs ?? 300_000;
    this.timers = options.timers ?? NODE_TIMERS;
  }

  /** Starts the checks, the first one at once; a second call is a no-op. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops the checks and waits for a patch under way (bounded by the patch's own timeout). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.stepping;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = this.timers.setTimeout(() => (this.stepping = this.step()), ms);
  }

  private async step(): Promise<void> {
    this.timer = undefined;
    if (!this.running) return;
    const cost = deletionCostFor(this.runsInFlight());
    if (cost === this.written) return this.schedule(this.intervalMs);
    try {
      await this.target.patch({ [POD_DELETION_COST_ANNOTATION]: String(cost) });
    } catch (error) {
      this.failures += 1;
      const retryInMs = Math.min(
        this.backoffMaxMs,
        this.backoffInitialMs * 2 ** (this.failures - 1),
      );
      const { message, status } = error as KubernetesApiError;
      this.logger.warn({
        msg: 'pod deletion cost not set',
        cost,
        status,
        error: message,
        failures: this.failures,
        retryInMs,
      });
      return this.schedule(retryInMs);
    }
    if (this.failures > 0)
      this.logger.log({ msg: 'pod deletion cost set again', cost, failures: this.failures });
    else this.logger.debug({ msg: 'pod deletion cost set', cost });
    this.written = cost;
    this.failures = 0;
    this.schedule(this.intervalMs);
  }
}
