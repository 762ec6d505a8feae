import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * One writer per thread and tool idempotency: the lease of a running thread (owner and
 * expiry) and a record of every tool execution by its tool-call id.
 */
export class AddLeasesAndToolCalls1732233600000 implements MigrationInterface {
  name = 'AddLeasesAndToolCalls1732233600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('agent_threads', [
      new TableColumn({ name: 'lease_owner', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({
        name: 'lease_expires_at',
        type: 'varchar',
        length: '32',
        isNullable: true,
      }),
    ]);
    await queryRunner.createIndex(
      'agent_threads',
      new TableIndex({ name: 'ix_agent_threads_lease', columnNames: ['lease_expires_at'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'agent_tool_calls',
        columns: [
          { name: 'thread_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'tool_call_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'run_key', type: 'varchar', length: '36' },
          { name: 'tool_name', type: 'varchar', length: '128' },
          { name: 'arguments', type: 'text' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'result', type: 'text', isNullable: true },
          { name: 'started_at', type: 'varchar', length: '32' },
          { name: 'finished_at', type: 'varchar', length: '32', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'ix_agent_tool_calls_run', columnNames: ['run_key'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('agent_tool_calls');
    await queryRunner.dropIndex('agent_threads', 'ix_agent_threads_lease');
    await queryRunner.dropColumn('agent_threads', 'lease_expires_at');
    await queryRunner.dropColumn('agent_threads', 'lease_owner');
  }
}
