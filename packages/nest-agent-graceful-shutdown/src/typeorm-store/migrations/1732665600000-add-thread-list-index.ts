import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** A user's threads, most recently active first, a page at a time (`SessionStore.listThreads`): one index range per page. */
export class AddThreadListIndex1732665600000 implements MigrationInterface {
  name = 'AddThreadListIndex1732665600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'agent_threads',
      new TableIndex({
        name: 'ix_agent_threads_owner_activity',
        columnNames: ['owner_id', 'updated_at', 'thread_id'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('agent_threads', 'ix_agent_threads_owner_activity');
  }
}
