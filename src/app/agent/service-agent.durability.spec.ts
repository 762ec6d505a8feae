import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from 'nest-agent-graceful-shutdown/store';
import { verifyDurability } from 'nest-agent-graceful-shutdown/testing';
import type { DataSource } from 'typeorm';
import { AGENT_FRAMEWORKS, loadAppConfig } from '../config/app-config';
import { openDataSource } from '../database/open-data-source';
import { SERVICE_MIGRATIONS } from '../database/service-migrations';
import { DemoLedger } from '../demo/demo-ledger';
import { serviceAgent } from './service-agent';

/** The reference agent of each framework, on the demo model (1 tool round, no waiting) and its ledger on SQLite. */
describe('the reference agent, interrupted at every point and resumed', () => {
  let dir: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dir = await mkdtemp(join(tmpdir(), 'agent-durability-'));
    dataSource = await openDataSource({
      type: 'better-sqlite3',
      database: join(dir, 'agents.sqlite'),
      entities: SESSION_ENTITIES,
      migrations: [...SESSION_MIGRATIONS, ...SERVICE_MIGRATIONS],
    });
  });
  afterAll(async () => {
    await dataSource.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(AGENT_FRAMEWORKS)(
    'keeps its work and its answer with AGENT_FRAMEWORK=%s',
    async (framework) => {
      const config = loadAppConfig({
        AUTH_JWT_SECRET: 'secret',
        AGENT_FRAMEWORK: framework,
        DEMO_STEPS: '1',
        DEMO_REASONING_MS: '0',
        DEMO_TOOL_MS: '0',
      });
      const ledger = new DemoLedger(dataSource);

      const report = await verifyDurability(() => serviceAgent(config, ledger), {
        input: 'Run the demo task',
      });

      expect(report.failures).toEqual([]);
      expect(report.finalAnswer).toBe('All 1 steps are done for: Run the demo task');
      expect(report.points.map((point) => point.point)).toEqual(
        expect.arrayContaining([
          'pre-reasoning#2',
          'pre-acting#1 demo_step',
          'mid-tool#1 demo_step',
        ]),
      );
    },
  );
});
