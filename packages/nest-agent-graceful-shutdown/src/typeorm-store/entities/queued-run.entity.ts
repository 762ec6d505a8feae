import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A run waiting in its thread's queue (multitask `enqueue`), until the runs before it have
 * ended; `seq` is the arrival order. Its start removes the row in the start's own transaction.
 */
@Entity({ name: 'agent_run_queue' })
@Index('uq_agent_run_queue_thread_run', ['threadId', 'runId'], { unique: true })
@Index('ix_agent_run_queue_thread_seq', ['threadId', 'seq'])
export class QueuedRunEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number;

  @Column({ name: 'thread_id', type: 'varchar', length: 128 })
  threadId: string;

  @Column({ name: 'run_id', type: 'varchar', length: 128 })
  runId: string;

  @Column({ name: 'owner_id', type: 'varchar', length: 256 })
  ownerId: string;

  @Column({ name: 'agent_name', type: 'varchar', length: 128, nullable: true })
  agentName: string | null;

  /** The request's user messages and approval answers, as JSON text. */
  @Column({ type: 'text' })
  input: string;

  @Column({ name: 'enqueued_at', type: 'varchar', length: 32 })
  enqueuedAt: string;
}
