import {
  Counter,
  Gauge,
  Histogram,
  register as globalRegistry,
  type Metric,
  type Registry,
} from 'prom-client';
import type { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import type {
  AgentObserver,
  RunOutcomeLabel,
  ShutdownPhaseLabel,
} from '../telemetry/agent-observer.interface.js';
import type { ResumeMode } from '../options/resume-mode.js';
import type { NotRunReason } from '../agent/agent-release.js';
import {
  AgentMetricName as Name,
  CANCEL_BUCKETS,
  CHECKPOINT_BUCKETS,
  SHUTDOWN_BUCKETS,
} from './metric-names.js';

const OUTCOMES: readonly RunOutcomeLabel[] = [
  'completed',
  'canceled',
  'interrupted',
  'handed_over',
  'awaiting_approval',
  'failed',
];
const MODES: readonly ResumeMode[] = ['client', 'auto'];
const NOT_RUN_REASONS: readonly NotRunReason[] = ['tool_removed', 'invalid_arguments', 'policy'];
const PHASES: readonly ShutdownPhaseLabel[] = ['drain', 'interrupt', 'close'];

/**
 * The module's Prometheus metrics (`agent_*`), registered on a `prom-client` registry (the
 * host's own, or prom-client's global one) and fed by the module's `AgentTelemetry`. Every
 * label value is present from the start at 0, so rates and alerts see a series before the
 * first event.
 *
 * @example
 * const registry = new Registry();
 * new AgentMetrics(app.get(AgentTelemetry), registry);
 * // GET /metrics: res.type(registry.contentType).send(await registry.metrics())
 */
export class AgentMetrics {
  private readonly metrics: Metric[];
  private readonly stopObserving: () => void;

  /** @param registry where the metrics are registered; default prom-client's global registry. */
  constructor(
    telemetry: AgentTelemetry,
    readonly registry: Registry = globalRegistry,
  ) {
    const registers = [registry];
    const inFlight = new Gauge({
      name: Name.runsInFlight,
      help: 'Runs executing on this instance.',
      registers,
      collect() {
        this.set(telemetry.runsInFlight);
      },
    });
    const busConnected = new Gauge({
      name: Name.signalBusConnected,
      help: '1 while the signal bus reaches the other instances (always 1 for the in-process bus).',
      registers,
      collect() {
        this.set(telemetry.signalBusConnected ? 1 : 0);
      },
    });
    const runs = new Counter({
      name: Name.runsTotal,
      help: 'Run attempts ended on this instance, by outcome.',
      labelNames: ['outcome'],
      registers,
    });
    const resumes = new Counter({
      name: Name.runResumesTotal,
      help: 'Interrupted runs resumed here, by who resumed them.',
      labelNames: ['mode'],
      registers,
    });
    const shutdown = new Histogram({
      name: Name.shutdownDurationSeconds,
      help: 'Time spent per shutdown phase (drain, interrupt, close).',
      labelNames: ['phase'],
      buckets: SHUTDOWN_BUCKETS,
      registers,
    });
    const checkpoint = new Histogram({
      name: Name.checkpointDurationSeconds,
      help: 'One step checkpoint write.',
      buckets: CHECKPOINT_BUCKETS,
      registers,
    });
    const cancel = new Histogram({
      name: Name.cancelDeliverySeconds,
      help: 'From a cancel accepted to its run stopped.',
      buckets: CANCEL_BUCKETS,
      registers,
    });
    const leaseLost = new Counter({
      name: Name.leaseLostTotal,
      help: 'Runs that lost their lease on their thread.',
      registers,
    });
    const joins = new Counter({
      name: Name.streamJoinsTotal,
      help: 'Run event stream joins served.',
      registers,
    });
    const abandoned = new Counter({
      name: Name.toolCallsAbandonedTotal,
      help: 'Tool calls still running when the process exited (their outcome is recorded as unknown).',
      registers,
    });
    const acrossVersions = new Counter({
      name: Name.resumesAcrossVersionsTotal,
      help: 'Resumes whose agent version or fingerprint differs from the interrupted attempt.',
      registers,
    });
    const notRun = new Counter({
      name: Name.toolCallsNotRunTotal,
      help: 'Pending tool calls not run at a resume, by reason (tool_removed, invalid_arguments, policy).',
      labelNames: ['reason'],
      registers,
    });
    const discarded = new Counter({
      name: Name.modelTokensDiscardedTotal,
      help: 'Tokens lost to model calls cut off by a stop: output streamed then cut, input sent again on the resume (source: usage, or estimate at 4 characters a token).',
      labelNames: ['kind', 'source'],
      registers,
    });
    for (const reason of NOT_RUN_REASONS) notRun.inc({ reason }, 0);
    for (const kind of ['input', 'output']) discarded.inc({ kind, source: 'estimate' }, 0);
    for (const outcome of OUTCOMES) runs.inc({ outcome }, 0);
    for (const mode of MODES) resumes.inc({ mode }, 0);
    for (const phase of PHASES) shutdown.zero({ phase });
    this.metrics = [
      inFlight,
      busConnected,
      runs,
      resumes,
      shutdown,
      checkpoint,
      cancel,
      leaseLost,
      joins,
      abandoned,
      acrossVersions,
      notRun,
      discarded,
    ];
    const observer: AgentObserver = {
      runEnded: (_run, outcome) => runs.inc({ outcome }),
      runResumed: (_run, mode) => resumes.inc({ mode }),
      shutdownPhaseEnded: (phase, seconds) => shutdown.observe({ phase }, seconds),
      checkpointWritten: (seconds) => checkpoint.observe(seconds),
      cancelDelivered: (_run, seconds) => cancel.observe(seconds),
      leaseLost: () => leaseLost.inc(),
      streamJoined: () => joins.inc(),
      toolCallAbandoned: () => abandoned.inc(),
      resumedAcrossVersions: () => acrossVersions.inc(),
      toolCallNotRun: (_run, _tool, reason) => notRun.inc({ reason }),
      modelTokensDiscarded: (_run, { input, output, source }) => {
        discarded.inc({ kind: 'input', source }, input);
        discarded.inc({ kind: 'output', source }, output);
      },
    };
    this.stopObserving = telemetry.observe(observer);
  }

  /** Stops counting and removes the metrics from their registry. */
  dispose(): void {
    this.stopObserving();
    for (const metric of this.metrics)
      this.registry.removeSingleMetric((metric as unknown as { name: string }).name);
  }
}
