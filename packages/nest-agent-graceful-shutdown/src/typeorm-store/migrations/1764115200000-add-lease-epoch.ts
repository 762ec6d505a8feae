import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Each thread counts how many times its lease changed hands (`lease_epoch`): every run
 * attempt's start raises it and hands it to the run's tools as their fencing token. Existing
 * rows start at 0. Additive, with a constant default (no row rewritten on PostgreSQL 11+), so
 * it runs while instances of the previous release serve; those start runs without raising it.
 */
export class AddLeaseEpoch1764115200000 implements MigrationInterface {
  name = 'AddLeaseEpoch1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'agent_threads',
      new TableColumn({ name: 'lease_epoch', type: 'integer', isNullable: false, default: 0 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('agent_threads', 'lease_epoch');
  }
}
