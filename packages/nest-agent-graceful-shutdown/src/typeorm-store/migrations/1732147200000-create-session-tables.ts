import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const varchar = (name: string, length: number, nullable = false) => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable: nullable,
});
const text = (name: string, nullable = false) => ({ name, type: 'text', isNullable: nullable });
const integer = (name: string) => ({ name, type: 'integer', default: 0 });

/** The session tables, written with the portable schema API so SQLite and PostgreSQL share it. */
export class CreateSessionTables1732147200000 implements MigrationInterface {
  name = 'CreateSessionTables1732147200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'agent_threads',
        columns: [
          { ...varchar('thread_id', 128), isPrimary: true },
          varchar('owner_id', 256),
          varchar('status', 32),
          integer('message_count'),
          varchar('active_run_id', 128, true),
          varchar('last_run_key', 36, true),
          text('interrupt', true),
          varchar('created_at', 32),
          varchar('updated_at', 32),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'agent_messages',
        columns: [
          { ...varchar('thread_id', 128), isPrimary: true },
          { name: 'seq', type: 'integer', isPrimary: true },
          varchar('message_id', 128),
          varchar('role', 16),
          text('content'),
          text('tool_calls', true),
          varchar('tool_call_id', 128, true),
          varchar('run_id', 128, true),
          varchar('created_at', 32),
        ],
        indices: [
          new TableIndex({
            name: 'uq_agent_messages_thread_message',
            columnNames: ['thread_id', 'message_id'],
            isUnique: true,
          }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'agent_runs',
        columns: [
          { ...varchar('run_key', 36), isPrimary: true },
          varchar('thread_id', 128),
          varchar('run_id', 128),
          varchar('status', 16),
          varchar('stop_reason', 16, true),
          varchar('error_code', 64, true),
          text('error_message', true),
          integer('iteration'),
          varchar('phase', 16, true),
          varchar('instance_id', 64),
          varchar('started_at', 32),
          varchar('ended_at', 32, true),
        ],
        indices: [
          new TableIndex({
            name: 'ix_agent_runs_thread_run',
            columnNames: ['thread_id', 'run_id'],
          }),
          new TableIndex({ name: 'ix_agent_runs_status', columnNames: ['status'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('agent_runs');
    await queryRunner.dropTable('agent_messages');
    await queryRunner.dropTable('agent_threads');
  }
}
