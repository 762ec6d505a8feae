import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A session: who owns it, whether a run is active, and its interrupt marker. While a run is
 * active, `lastRunKey` is its fencing token and `leaseOwner`/`leaseExpiresAt` its lease.
 */
@Entity({ name: 'agent_threads' })
@Index('ix_agent_threads_lease', ['leaseExpiresAt'])
@Index('ix_agent_threads_owner_activity', ['ownerId', 'updatedAt', 'threadId'])
export class ThreadEntity {
  @PrimaryColumn({ name: 'thread_id', type: 'varchar', length: 128 })
  threadId: string;

  @Column({ name: 'owner_id', type: 'varchar', length: 256 })
  ownerId: string;

  @Column({ type: 'varchar', length: 32 })
  status: string;

  @Column({ name: 'message_count', type: 'integer', default: 0 })
  messageCount: number;

  @Column({ name: 'active_run_id', type: 'varchar', length: 128, nullable: true })
  activeRunId: string | null;

  @Column({ name: 'last_run_key', type: 'varchar', length: 36, nullable: true })
  lastRunKey: string | null;

  /** The `InterruptedState` as JSON text; null when the thread is not interrupted. */
  @Column({ name: 'interrupt', type: 'text', nullable: true })
  interrupt: string | null;

  /** An agent framework's own state for the thread (JSON text, e.g. a graph checkpoint without its messages); null when none. */
  @Column({ name: 'run_state', type: 'text', nullable: true })
  runState: string | null;

  /** Instance id of the process that runs the active run. */
  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  /** ISO time after which the active run counts as crashed unless renewed. */
  @Column({ name: 'lease_expires_at', type: 'varchar', length: 32, nullable: true })
  leaseExpiresAt: string | null;

  /**
   * How many times the thread's lease has changed hands: each run attempt's `startRun` raises
   * it by one and hands it to the run as its tools' fencing token.
   */
  @Column({ name: 'lease_epoch', type: 'integer', default: 0 })
  leaseEpoch: number;

  /** The format of the thread's records (`RECORD_FORMAT_VERSION` of the release that wrote them). */
  @Column({ name: 'format_version', type: 'integer', default: 1 })
  formatVersion: number;

  /** How many runs wait in the thread's queue (`agent_run_queue`): a request reads the queue only when some do. */
  @Column({ name: 'queued_runs', type: 'integer', default: 0 })
  queuedRuns: number;

  @Column({ name: 'created_at', type: 'varchar', length: 32 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 32 })
  updatedAt: string;
}
