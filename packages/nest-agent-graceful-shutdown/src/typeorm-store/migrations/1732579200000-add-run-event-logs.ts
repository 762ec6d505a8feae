import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Run event logs in the session database, for an instance without Redis: joinable streams that outlive a restart. */
export class AddRunEventLogs1732579200000 implements MigrationInterface {
  name = 'AddRunEventLogs1732579200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'agent_run_event_logs',
        columns: [
          { name: 'thread_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'run_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'last_id', type: 'integer' },
          { name: 'writer', type: 'varchar', length: '36', isNullable: true },
          { name: 'expires_at', type: 'varchar', length: '32', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'ix_agent_run_event_logs_expiry', columnNames: ['expires_at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'agent_run_events',
        columns: [
          { name: 'thread_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'run_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'event_id', type: 'integer', isPrimary: true },
          { name: 'event', type: 'text' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('agent_run_events');
    await queryRunner.dropTable('agent_run_event_logs');
  }
}
