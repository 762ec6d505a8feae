import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One attempt of a run on a thread. */
@Entity({ name: 'agent_runs' })
@Index('ix_agent_runs_thread_run', ['threadId', 'runId'])
@Index('ix_agent_runs_status', ['status'])
export class RunEntity {
  @PrimaryColumn({ name: 'run_key', type: 'varchar', length: 36 })
  key: string;

  @Column({ name: 'thread_id', type: 'varchar', length: 128 })
  threadId: string;

  @Column({ name: 'run_id', type: 'varchar', length: 128 })
  runId: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ name: 'stop_reason', type: 'varchar', length: 32, nullable: true })
  stopReason: string | null;

  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true })
  errorCode: string | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ type: 'integer', default: 0 })
  iteration: number;

  @Column({ type: 'varchar', length: 16, nullable: true })
  phase: string | null;

  @Column({ name: 'instance_id', type: 'varchar', length: 64 })
  instanceId: string;

  /** The registered name of the agent that runs it; null for an agent that was not registered. */
  @Column({ name: 'agent_name', type: 'varchar', length: 128, nullable: true })
  agentName: string | null;

  /** The `version` label of the agent that ran this attempt; null for attempts of releases before 0.8. */
  @Column({ name: 'agent_version', type: 'varchar', length: 128, nullable: true })
  agentVersion: string | null;

  /** The fingerprint of that agent's tools and graph; null before 0.8. */
  @Column({ name: 'agent_fingerprint', type: 'varchar', length: 64, nullable: true })
  agentFingerprint: string | null;

  /** Prompt tokens of the run's model calls, when the model reports usage. */
  @Column({ name: 'prompt_tokens', type: 'integer', nullable: true })
  promptTokens: number | null;

  @Column({ name: 'completion_tokens', type: 'integer', nullable: true })
  completionTokens: number | null;

  @Column({ name: 'started_at', type: 'varchar', length: 32 })
  startedAt: string;

  @Column({ name: 'ended_at', type: 'varchar', length: 32, nullable: true })
  endedAt: string | null;
}
