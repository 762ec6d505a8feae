import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Records which release of the agent ran each run attempt (its `version` label and the
 * fingerprint of its tools and graph), so a resume knows when it crosses a change. Nullable
 * columns: instances of the previous release keep writing runs while a rolling update runs.
 */
export class AddRunAgentRelease1764374400000 implements MigrationInterface {
  name = 'AddRunAgentRelease1764374400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('agent_runs', [
      new TableColumn({ name: 'agent_version', type: 'varchar', length: '128', isNullable: true }),
      new TableColumn({
        name: 'agent_fingerprint',
        type: 'varchar',
        length: '64',
        isNullable: true,
      }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('agent_runs', 'agent_fingerprint');
    await queryRunner.dropColumn('agent_runs', 'agent_version');
  }
}
