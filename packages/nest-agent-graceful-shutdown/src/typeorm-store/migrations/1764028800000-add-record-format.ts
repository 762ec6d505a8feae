import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Each thread records the format of its records (`RECORD_FORMAT_VERSION`). Existing rows, and
 * rows a previous release still inserts during a rolling upgrade, get 1: their format. Adding a
 * column with a constant default rewrites no row on PostgreSQL 11+, so it runs while instances
 * of the previous release serve.
 */
export class AddRecordFormat1764028800000 implements MigrationInterface {
  name = 'AddRecordFormat1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'agent_threads',
      new TableColumn({ name: 'format_version', type: 'integer', isNullable: false, default: 1 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('agent_threads', 'format_version');
  }
}
