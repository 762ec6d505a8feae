import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A run's event log: its last id, and when it is evicted once the run has ended. */
@Entity({ name: 'agent_run_event_logs' })
@Index('ix_agent_run_event_logs_expiry', ['expiresAt'])
export class RunEventLogEntity {
  @PrimaryColumn({ name: 'thread_id', type: 'varchar', length: 128 })
  threadId: string;

  @PrimaryColumn({ name: 'run_id', type: 'varchar', length: 128 })
  runId: string;

  @Column({ name: 'last_id', type: 'integer' })
  lastId: number;

  /** The run attempt (run key) that claimed the log last: only its appends are taken. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  writer: string | null;

  /** ISO time after which the log is evicted; null while the run goes on. */
  @Column({ name: 'expires_at', type: 'varchar', length: 32, nullable: true })
  expiresAt: string | null;
}
