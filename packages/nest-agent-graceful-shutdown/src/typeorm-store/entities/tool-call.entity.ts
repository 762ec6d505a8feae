import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One tool execution, by tool-call id: `started` before the tool runs, `finished` with its
 * result in the same transaction as the tool message. A resumed run never repeats a
 * finished call, and reports a started one as of unknown outcome.
 */
@Entity({ name: 'agent_tool_calls' })
@Index('ix_agent_tool_calls_run', ['runKey'])
export class ToolCallEntity {
  @PrimaryColumn({ name: 'thread_id', type: 'varchar', length: 128 })
  threadId: string;

  @PrimaryColumn({ name: 'tool_call_id', type: 'varchar', length: 128 })
  toolCallId: string;

  @Column({ name: 'run_key', type: 'varchar', length: 36 })
  runKey: string;

  @Column({ name: 'tool_name', type: 'varchar', length: 128 })
  toolName: string;

  @Column({ type: 'text' })
  arguments: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'text', nullable: true })
  result: string | null;

  @Column({ name: 'started_at', type: 'varchar', length: 32 })
  startedAt: string;

  @Column({ name: 'finished_at', type: 'varchar', length: 32, nullable: true })
  finishedAt: string | null;
}
