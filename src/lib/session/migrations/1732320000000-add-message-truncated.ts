import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Marks an assistant message cut off by a stop while it streamed (partial output saved). */
export class AddMessageTruncated1732320000000 implements MigrationInterface {
  name = 'AddMessageTruncated1732320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('agent_messages', new TableColumn({ name: 'truncated', type: 'boolean', default: false }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('agent_messages', 'truncated');
  }
}
