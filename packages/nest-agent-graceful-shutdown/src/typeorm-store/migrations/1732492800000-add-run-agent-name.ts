import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Names the agent that runs each run attempt, so any instance can continue it on its own (resume mode `auto`). */
export class AddRunAgentName1732492800000 implements MigrationInterface {
  name = 'AddRunAgentName1732492800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'agent_runs',
      new TableColumn({ name: 'agent_name', type: 'varchar', length: '128', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('agent_runs', 'agent_name');
  }
}
