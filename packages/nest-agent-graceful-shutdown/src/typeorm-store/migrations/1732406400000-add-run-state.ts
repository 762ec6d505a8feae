import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Keeps an agent framework's own state per thread (a graph checkpoint without its messages, a run state). */
export class AddRunState1732406400000 implements MigrationInterface {
  name = 'AddRunState1732406400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'agent_threads',
      new TableColumn({ name: 'run_state', type: 'text', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('agent_threads', 'run_state');
  }
}
