import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One AG-UI event of a run's log, under its SSE id (the SQL run event log). */
@Entity({ name: 'agent_run_events' })
export class RunEventEntity {
  @PrimaryColumn({ name: 'thread_id', type: 'varchar', length: 128 })
  threadId: string;

  @PrimaryColumn({ name: 'run_id', type: 'varchar', length: 128 })
  runId: string;

  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId: number;

  /** The event as JSON text. */
  @Column({ type: 'text' })
  event: string;
}
