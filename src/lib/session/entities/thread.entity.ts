import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A session: who owns it, whether a run is active, and its interrupt marker. */
@Entity({ name: 'agent_threads' })
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

  @Column({ name: 'created_at', type: 'varchar', length: 32 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 32 })
  updatedAt: string;
}
