import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One message of a thread, in order (`seq`). Messages are only ever appended. */
@Entity({ name: 'agent_messages' })
@Index('uq_agent_messages_thread_message', ['threadId', 'id'], { unique: true })
export class MessageEntity {
  @PrimaryColumn({ name: 'thread_id', type: 'varchar', length: 128 })
  threadId: string;

  @PrimaryColumn({ type: 'integer' })
  seq: number;

  @Column({ name: 'message_id', type: 'varchar', length: 128 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  role: string;

  @Column({ type: 'text' })
  content: string;

  /** Tool calls as JSON text. */
  @Column({ name: 'tool_calls', type: 'text', nullable: true })
  toolCalls: string | null;

  @Column({ name: 'tool_call_id', type: 'varchar', length: 128, nullable: true })
  toolCallId: string | null;

  /** Cut off by a stop while it streamed: the text is what was said before. */
  @Column({ type: 'boolean', default: false })
  truncated: boolean;

  @Column({ name: 'run_id', type: 'varchar', length: 128, nullable: true })
  runId: string | null;

  @Column({ name: 'created_at', type: 'varchar', length: 32 })
  createdAt: string;
}
