import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent } from '@ag-ui/core';
import { DataSource } from 'typeorm';
// A run as the module's run service wires it, from the package's source: these are internals.
import type { AgentMessage } from '../../packages/nest-agent-graceful-shutdown/src/agent/agent-message';
import { RunControl } from '../../packages/nest-agent-graceful-shutdown/src/agent/run-control';
import { StopReason } from '../../packages/nest-agent-graceful-shutdown/src/agent/stop-reason';
import { driveRun } from '../../packages/nest-agent-graceful-shutdown/src/handle/drive-run';
import { DurableRunHandle } from '../../packages/nest-agent-graceful-shutdown/src/handle/durable-run-handle';
import type { DurableAgent } from '../../packages/nest-agent-graceful-shutdown/src/handle/run-handle.interface';
import { InFlightRunRegistry } from '../../packages/nest-agent-graceful-shutdown/src/lifecycle/in-flight-run.registry';
import { resolveShutdownOptions } from '../../packages/nest-agent-graceful-shutdown/src/options/resolve-shutdown-options';
import {
  summarizeOutcome,
  terminalEvent,
} from '../../packages/nest-agent-graceful-shutdown/src/runs/run-outcome-mapping';
import {
  SESSION_ENTITIES,
  SESSION_MIGRATIONS,
} from '../../packages/nest-agent-graceful-shutdown/src/typeorm-store/session-schema';
import type { TypeOrmRunEventLog } from '../../packages/nest-agent-graceful-shutdown/src/typeorm-store/typeorm-run-event-log';
import { TypeOrmSessionStore } from '../../packages/nest-agent-graceful-shutdown/src/typeorm-store/typeorm-session.store';
import { StoreCheckpointer } from '../../packages/nest-agent-graceful-shutdown/src/session/store-checkpointer';
import {
  GracefulShutdownHook,
  type RunFinalizer,
} from '../../packages/nest-agent-graceful-shutdown/src/shutdown/graceful-shutdown.hook';
import { ShutdownCoordinator } from '../../packages/nest-agent-graceful-shutdown/src/shutdown/shutdown-coordinator.service';
import { InProcessSignalBus } from '../../packages/nest-agent-graceful-shutdown/src/signals/in-process-signal-bus';
import { RunEventChannel } from '../../packages/nest-agent-graceful-shutdown/src/streams/run-event-channel';
import { TimedCheckpointer } from './timed-checkpointer';

/** How long the end of a run waits for its events to reach the log, as the run service does, in ms. */
const LOG_FLUSH_TIMEOUT_MS = 5_000;
/** The default `STREAM_RETENTION_MS`. */
const RETENTION_MS = 3_600_000;

/**
 * One instance's durable side on PostgreSQL, as the module builds it without Redis: the
 * TypeORM session store, the run event log in the same database (the default log without
 * Redis), and the shutdown hook's registry, coordinator and in-process signal bus.
 */
export class ModuleInstance {
  private readonly registry = new InFlightRunRegistry();
  private readonly coordinator = new ShutdownCoordinator(resolveShutdownOptions({}), this.registry);
  private readonly signals = new InProcessSignalBus();
  private readonly log: TypeOrmRunEventLog;

  private constructor(
    private readonly dataSource: DataSource,
    private readonly store: TypeOrmSessionStore,
  ) {
    this.log = store.createRunEventLog();
  }

  /** Migrates the database at `url` and opens the store on it (TypeORM's default pool of 10 connections). */
  static async open(url: string): Promise<ModuleInstance> {
    const dataSource = new DataSource({
      type: 'postgres',
      url,
      entities: SESSION_ENTITIES,
      migrations: SESSION_MIGRATIONS,
      migrationsRun: true,
    });
    await dataSource.initialize();
    return new ModuleInstance(dataSource, new TypeOrmSessionStore(dataSource));
  }

  /**
   * One run of `agent` on a new thread, written as the run service writes it: the log opened
   * and the run started (fencing token, lease), the log claimed, every step checkpointed (each
   * write timed, see `TimedCheckpointer`) and its events appended to the log, then the end saved (group-committed) and the terminal event
   * logged. Throws unless the run completed with every event in the log.
   */
  async run(agent: DurableAgent): Promise<void> {
    const threadId = randomUUID();
    const runId = 'run-1';
    const runKey = randomUUID();
    const user: AgentMessage = { id: randomUUID(), role: 'user', content: 'go' };
    const logErrors: unknown[] = [];
    const onError = (error: unknown) => logErrors.push(error);
    const channel = await RunEventChannel.open(
      this.log,
      { threadId, runId },
      { firstAttempt: async () => true, fresh: true, onError },
    );
    const { fencingToken } = await this.store.startRun({
      threadId,
      runId,
      runKey,
      ownerId: 'bench',
      instanceId: 'bench',
      messages: [user],
    });
    await channel.activate(runKey);
    channel.emit({ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent);
    const finalizer: RunFinalizer = {
      finalize: async (outcome, interrupt, onSaved) => {
        const summary = summarizeOutcome(outcome);
        const { iteration, phase, stopReason, usage } = outcome;
        await this.store.finishRun({
          threadId,
          runKey,
          status: summary.status,
          stopReason,
          iteration,
          phase,
          errorCode: summary.errorCode,
          usage,
          interrupt,
        });
        onSaved?.();
        channel.emit(terminalEvent(threadId, runId, summary));
        await channel.close(LOG_FLUSH_TIMEOUT_MS, RETENTION_MS);
      },
    };
    const hook = new GracefulShutdownHook({
      registry: this.registry,
      coordinator: this.coordinator,
      signals: this.signals,
      finalizer,
    });
    const handle = new DurableRunHandle({
      threadId,
      runId,
      fencingToken,
      history: [user],
      hooks: [hook],
      control: new RunControl(),
      checkpointer: new TimedCheckpointer(
        new StoreCheckpointer(this.store, { threadId, runId, runKey }),
      ),
      emit: channel.emit,
      toolTraits: (name) => agent.toolTraits(name),
    });
    const outcome = await driveRun(agent, handle);
    if (outcome.stopReason !== StopReason.Completed)
      throw new Error(
        `benchmark run ended with ${outcome.stopReason}: ${outcome.error?.message ?? ''}`,
      );
    if (logErrors.length) throw new Error(`the run's event log failed: ${String(logErrors[0])}`);
  }

  async close(): Promise<void> {
    await this.store.onApplicationShutdown();
    await this.dataSource.destroy();
  }
}
