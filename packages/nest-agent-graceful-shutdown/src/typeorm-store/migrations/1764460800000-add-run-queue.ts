import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `agent_run_queue`: runs waiting for their thread's runs before them to end (multitask
 * `enqueue`), and each thread's count of them (`queued_runs`), so a request reads the queue only
 * when the thread has one. A new table and a column with a constant default (no row rewritten on
 * PostgreSQL 11+): it runs while instances of the previous release serve, which neither queue nor
 * start queued runs.
 */
export class AddRunQueue1764460800000 implements MigrationInterface {
  name = 'AddRunQueue1764460800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'agent_run_queue',
        columns: [
          {
            name: 'seq',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'thread_id', type: 'varchar', length: '128' },
          { name: 'run_id', type: 'varchar', length: '128' },
          { name: 'owner_id', type: 'varchar', length: '256' },
          { name: 'agent_name', type: 'varchar', length: '128', isNullable: true },
          { name: 'input', type: 'text' },
          { name: 'enqueued_at', type: 'varchar', length: '32' },
        ],
        indices: [
          new TableIndex({
            name: 'uq_agent_run_queue_thread_run',
            columnNames: ['thread_id', 'run_id'],
            isUnique: true,
          }),
          new TableIndex({
            name: 'ix_agent_run_queue_thread_seq',
            columnNames: ['thread_id', 'seq'],
          }),
        ],
      }),
      true,
    );
    await queryRunner.addColumn(
      'agent_threads',
      new TableColumn({ name: 'queued_runs', type: 'integer', isNullable: false, default: 0 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('agent_threads', 'queued_runs');
    await queryRunner.dropTable('agent_run_queue');
  }
}
