import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The demo tool's ledger (see `demo/demo-ledger.ts`): per thread, the highest fencing token a
 * call of the tool has presented; per idempotency key, the one effect recorded.
 */
export class CreateDemoLedger1764201600000 implements MigrationInterface {
  name = 'CreateDemoLedger1764201600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'demo_tool_fences',
        columns: [
          { name: 'thread_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'fencing_token', type: 'integer', isNullable: false },
        ],
      }),
      true,
    );
    await queryRunner.createTable(
      new Table({
        name: 'demo_tool_effects',
        columns: [
          { name: 'idempotency_key', type: 'varchar', length: '128', isPrimary: true },
          { name: 'thread_id', type: 'varchar', length: '128', isNullable: false },
          { name: 'tool_call_id', type: 'varchar', length: '256', isNullable: false },
          { name: 'step', type: 'integer', isNullable: true },
          { name: 'fencing_token', type: 'integer', isNullable: false },
          { name: 'result', type: 'text', isNullable: false },
          { name: 'recorded_at', type: 'varchar', length: '32', isNullable: false },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('demo_tool_effects', true);
    await queryRunner.dropTable('demo_tool_fences', true);
  }
}
