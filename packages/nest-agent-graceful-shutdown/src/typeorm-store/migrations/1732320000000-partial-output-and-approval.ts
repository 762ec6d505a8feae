import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Marks an assistant message cut off by a stop while it streamed (partial output saved), and
 * widens a run's stop reason for `awaiting_approval`, and records a run's token usage.
 */
export class PartialOutputAndApproval1732320000000 implements MigrationInterface {
  name = 'PartialOutputAndApproval1732320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'agent_messages',
      new TableColumn({ name: 'truncated', type: 'boolean', default: false }),
    );
    await queryRunner.changeColumn(
      'agent_runs',
      'stop_reason',
      new TableColumn({ name: 'stop_reason', type: 'varchar', length: '32', isNullable: true }),
    );
    await queryRunner.addColumns('agent_runs', [
      new TableColumn({ name: 'prompt_tokens', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'completion_tokens', type: 'integer', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('agent_runs', 'completion_tokens');
    await queryRunner.dropColumn('agent_runs', 'prompt_tokens');
    await queryRunner.changeColumn(
      'agent_runs',
      'stop_reason',
      new TableColumn({ name: 'stop_reason', type: 'varchar', length: '16', isNullable: true }),
    );
    await queryRunner.dropColumn('agent_messages', 'truncated');
  }
}
