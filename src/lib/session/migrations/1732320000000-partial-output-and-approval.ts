import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Marks an assistant message cut off by a stop while it streamed (partial output saved), and
 * widens a run's stop reason for `awaiting_approval`.
 */
export class PartialOutputAndApproval1732320000000 implements MigrationInterface {
  name = 'PartialOutputAndApproval1732320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('agent_messages', new TableColumn({ name: 'truncated', type: 'boolean', default: false }));
    await queryRunner.changeColumn('agent_runs', 'stop_reason', new TableColumn({ name: 'stop_reason', type: 'varchar', length: '32', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.changeColumn('agent_runs', 'stop_reason', new TableColumn({ name: 'stop_reason', type: 'varchar', length: '16', isNullable: true }));
    await queryRunner.dropColumn('agent_messages', 'truncated');
  }
}
