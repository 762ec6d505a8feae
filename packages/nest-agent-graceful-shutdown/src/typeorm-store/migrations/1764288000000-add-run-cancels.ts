import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `agent_run_cancels`: the cancels the PostgreSQL signal bus publishes, each until it expires or
 * its run ends, so a run that subscribes late (or an instance that reconnects) still sees one.
 * PostgreSQL only: on SQLite the bus is in-process and remembers cancels in memory. A new
 * table, so it runs while instances of the previous release serve.
 */
export class AddRunCancels1764288000000 implements MigrationInterface {
  name = 'AddRunCancels1764288000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS agent_run_cancels (
         thread_id varchar NOT NULL,
         run_id varchar NOT NULL,
         expires_at timestamptz NOT NULL,
         PRIMARY KEY (thread_id, run_id)
       )`,
    );
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS agent_run_cancels_expires_at ON agent_run_cancels (expires_at)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query('DROP TABLE IF EXISTS agent_run_cancels');
  }
}
