import { Logger, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { CustomEvent } from '@ag-ui/core';
import { answer, ask, call, scriptedModel } from '../runtime/agent-runtime.fixtures.js';
import type { AgentDefinition } from '../agent/agent-definition.js';
import type { AgentHook } from '../agent/agent-hook.interface.js';
import type { VersionChangePolicy } from '../agent/agent-release.js';
import type { AgentTool } from '../agent/agent-tool.interface.js';
import { StopReason } from '../agent/stop-reason.js';
import { RUN_EVENT_LOG, type RunEventLog } from '../contracts/run-event-log.interface.js';
import { AgentVersionChangedError } from '../errors/agent-version-changed.error.js';
import { GracefulShutdownModule } from '../graceful-shutdown.module.js';
import {
  openSqliteStore,
  type SqliteStoreFixture,
} from '../typeorm-store/sqlite-store.fixtures.js';
import { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import { AgentRegistry, DEFAULT_AGENT_NAME } from '../runtime/agent-registry.js';
import { AgentRuntime } from '../runtime/agent-runtime.js';
import type { DurableAgent } from '../handle/run-handle.interface.js';
import { AgentRun } from './agent-run.js';
import { AgentRunService } from './agent-run.service.js';

beforeAll(() => Logger.overrideLogger(false));

const CHARGE_ARGS = '{"orderId":"42","amount":10}';
const INPUT = {
  threadId: 't1',
  runId: 'r1',
  userMessages: [{ id: 'm1', content: 'charge order 42' }],
  resume: [],
};

/** The calls each release's tools ran, by tool and arguments. */
const ran: string[] = [];

function tool(name: string, properties: Record<string, unknown>, required: string[]): AgentTool {
  return {
    definition: { name, description: name, parameters: { type: 'object', properties, required } },
    execute: async (args) => {
      ran.push(`${name} ${JSON.stringify(args)}`);
      return `${name} done`;
    },
  };
}

const chargeV1 = tool('charge_card', { orderId: { type: 'string' }, amount: { type: 'number' } }, [
  'orderId',
  'amount',
]);
const chargeV2 = tool(
  'charge_card',
  { orderId: { type: 'string' }, amount: { type: 'number' }, currency: { type: 'string' } },
  ['orderId', 'amount', 'currency'],
);
const receipt = tool('send_receipt', { orderId: { type: 'string' } }, ['orderId']);

/** Release 1.0.0: asks to charge the card, then answers. */
function releaseOne(): AgentDefinition {
  return {
    version: '1.0.0',
    model: scriptedModel(ask(call('c1', 'charge_card', CHARGE_ARGS)), answer('charged')).model,
    tools: [chargeV1, receipt],
  };
}

/** Stops every run at the pre-acting safe point of `charge_card`, as a shutdown's drain deadline does. */
const stopBeforeCharge: AgentHook = {
  preActing: (event) =>
    event.toolCall.name === 'charge_card'
      ? { stop: StopReason.Interrupted, detail: 'shutdown' }
      : undefined,
};

/** One instance of the service: the module on the shared SQLite store, running `agent`. */
async function instance(
  sqlite: SqliteStoreFixture,
  hooks: AgentHook[] = [],
  onVersionChange?: VersionChangePolicy,
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GracefulShutdownModule.forRoot({
        shutdown: { handleSignals: false },
        store: { useValue: sqlite.store },
        runs: { hooks, ...(onVersionChange ? { onVersionChange } : {}) },
      }),
    ],
  }).compile();
  const app = moduleRef.createNestApplication();
  await app.init();
  return app;
}

async function runOn(app: INestApplication, agent: AgentDefinition) {
  const run = await app.get(AgentRunService).start('alice', INPUT, agent);
  if (!(run instanceof AgentRun)) throw new Error('a run must be started or resumed');
  return run.execute();
}

describe('AgentRunService, a rollback: a run of release 2.0.0 retried on 1.0.0', () => {
  let sqlite: SqliteStoreFixture;
  const apps: INestApplication[] = [];

  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await sqlite.close();
  });

  it('answers the pending call of a tool only the newer release has "not run", and finishes on the older one', async () => {
    ran.length = 0;
    sqlite = await openSqliteStore();
    const coupon = tool('apply_coupon', { code: { type: 'string' } }, ['code']);
    const newer: AgentDefinition = {
      version: '2.0.0',
      model: scriptedModel(ask(call('c9', 'apply_coupon', '{"code":"X"}'))).model,
      tools: [coupon, chargeV1],
    };
    const stopBeforeCoupon: AgentHook = {
      preActing: (event) =>
        event.toolCall.name === 'apply_coupon' ? { stop: StopReason.Interrupted } : undefined,
    };
    const v2 = await instance(sqlite, [stopBeforeCoupon]);
    const v1 = await instance(sqlite);
    apps.push(v2, v1);
    await runOn(v2, newer);

    const outcome = await runOn(v1, {
      version: '1.0.0',
      model: scriptedModel(answer('no coupon')).model,
      tools: [chargeV1, receipt],
    });

    expect(outcome.stopReason).toBe(StopReason.Completed);
    expect(ran).toEqual([]);
    expect(await sqlite.store.findToolCalls('t1', ['c9'])).toEqual([
      expect.objectContaining({ status: 'not_run' }),
    ]);
  });
});

describe('AgentRunService, a resume on another release of the agent', () => {
  let sqlite: SqliteStoreFixture;
  const apps: INestApplication[] = [];

  beforeEach(async () => {
    ran.length = 0;
    sqlite = await openSqliteStore();
    const v1 = await instance(sqlite, [stopBeforeCharge]);
    apps.push(v1);
    expect((await runOn(v1, releaseOne())).stopReason).toBe(StopReason.Interrupted);
  });

  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await sqlite.close();
  });

  async function releaseTwo(tools: AgentTool[], onVersionChange?: VersionChangePolicy) {
    const app = await instance(sqlite, [], onVersionChange);
    apps.push(app);
    const agent: AgentDefinition = {
      version: '2.0.0',
      model: scriptedModel(answer('done on 2.0.0')).model,
      tools,
    };
    return { app, agent };
  }

  async function versionEvent(app: INestApplication): Promise<CustomEvent | undefined> {
    const events =
      (await app
        .get<symbol, RunEventLog>(RUN_EVENT_LOG)
        .read({ threadId: 't1', runId: 'r1' }, 0, 1_000)) ?? [];
    return events
      .map(({ event }) => event)
      .find(
        (event): event is CustomEvent =>
          event.type === 'CUSTOM' && (event as CustomEvent).name === 'agent_version_changed',
      );
  }

  it('records the interrupted attempt with its release, in its run and its marker', async () => {
    const thread = await sqlite.store.findThread('t1');

    expect(thread?.interrupt).toMatchObject({
      agentVersion: '1.0.0',
      agentFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(thread?.lastRun).toMatchObject({
      agentVersion: '1.0.0',
      agentFingerprint: thread?.interrupt?.agentFingerprint,
    });
  });

  it('answers a call whose tool the new release removed "not run", records it so, and finishes without running it', async () => {
    const { app, agent } = await releaseTwo([receipt]);

    const outcome = await runOn(app, agent);

    expect(outcome.stopReason).toBe(StopReason.Completed);
    expect(ran).toEqual([]);
    const messages = await sqlite.store.loadMessages('t1');
    expect(messages.find((message) => message.toolCallId === 'c1')?.content).toBe(
      'not run: the tool "charge_card" no longer exists in release 2.0.0 of the agent.',
    );
    expect(await sqlite.store.findToolCalls('t1', ['c1'])).toEqual([
      expect.objectContaining({ status: 'not_run', toolName: 'charge_card' }),
    ]);
  });

  it('tells the model and the run stream what changed and which call it did not run', async () => {
    const { app, agent } = await releaseTwo([receipt]);

    await runOn(app, agent);

    const resume = (await sqlite.store.loadMessages('t1')).find(
      (message) => message.role === 'system',
    );
    expect(resume?.content).toContain('release 1.0.0 to 2.0.0');
    expect(resume?.content).toContain('charge_card');
    expect((await versionEvent(app))?.value).toMatchObject({
      from: { version: '1.0.0' },
      to: { version: '2.0.0' },
      notRun: [{ toolCallId: 'c1', toolName: 'charge_card', reason: 'tool_removed' }],
    });
  });

  it("does not run a call on arguments the new release's schema refuses", async () => {
    const { app, agent } = await releaseTwo([chargeV2, receipt]);

    await runOn(app, agent);

    expect(ran).toEqual([]);
    const result = (await sqlite.store.loadMessages('t1')).find(
      (message) => message.toolCallId === 'c1',
    )?.content;
    expect(result).toMatch(
      /^not run: the arguments of this call do not fit the tool "charge_card" in release 2\.0\.0 of the agent: .*currency/,
    );
    expect((await versionEvent(app))?.value).toMatchObject({
      notRun: [{ reason: 'invalid_arguments' }],
    });
  });

  it('runs a pending call its new release still accepts', async () => {
    const { app, agent } = await releaseTwo([chargeV1, receipt]);

    await runOn(app, agent);

    expect(ran).toEqual([`charge_card ${CHARGE_ARGS}`]);
  });

  it('shows the release of the last attempt in the thread', async () => {
    const { app, agent } = await releaseTwo([receipt]);
    const before = (await sqlite.store.findThread('t1'))?.lastRun?.agentFingerprint;

    await runOn(app, agent);

    const lastRun = (await sqlite.store.findThread('t1'))?.lastRun;
    expect(lastRun?.agentVersion).toBe('2.0.0');
    expect(lastRun?.agentFingerprint).not.toBe(before);
  });

  it('counts the resume across versions and each call not run, by reason', async () => {
    const { app, agent } = await releaseTwo([receipt]);
    const seen: string[] = [];
    app.get(AgentTelemetry).observe({
      resumedAcrossVersions: (_run, from, to) => seen.push(`resumed ${from} ${to}`),
      toolCallNotRun: (_run, toolName, reason) => seen.push(`not run ${toolName} ${reason}`),
    });

    await runOn(app, agent);

    expect(seen).toEqual(['resumed 1.0.0 2.0.0', 'not run charge_card tool_removed']);
  });

  it('refuses the resume with AGENT_VERSION_CHANGED under the refuse policy, writing nothing', async () => {
    const { app, agent } = await releaseTwo([receipt], 'refuse');
    const before = await sqlite.store.findThread('t1');

    await expect(app.get(AgentRunService).start('alice', INPUT, agent)).rejects.toThrow(
      AgentVersionChangedError,
    );

    const after = await sqlite.store.findThread('t1');
    expect(after).toMatchObject({
      status: 'interrupted',
      messageCount: before?.messageCount,
      lastRun: { key: before?.lastRun?.key },
    });
  });

  it('names both releases in the refusal', async () => {
    const { app, agent } = await releaseTwo([receipt], 'refuse');

    const refusal = await app
      .get(AgentRunService)
      .start('alice', INPUT, agent)
      .catch((error: unknown) => error);

    expect(refusal).toMatchObject({
      code: 'AGENT_VERSION_CHANGED',
      fromVersion: '1.0.0',
      toVersion: '2.0.0',
    });
    expect((refusal as AgentVersionChangedError).getStatus()).toBe(409);
  });

  it('leaves a refused thread to an instance of the release that wrote it', async () => {
    const { app, agent } = await releaseTwo([receipt], 'refuse');
    await app
      .get(AgentRunService)
      .start('alice', INPUT, agent)
      .catch(() => undefined);
    const old = await instance(sqlite);
    apps.push(old);

    const outcome = await runOn(old, releaseOne());

    expect(outcome.stopReason).toBe(StopReason.Completed);
    expect(ran).toEqual([`charge_card ${CHARGE_ARGS}`]);
  });

  it('does not continue on its own a thread its policy refuses (resume mode auto)', async () => {
    const { app, agent } = await releaseTwo([receipt], 'refuse');
    app.get(AgentRegistry).register(DEFAULT_AGENT_NAME, agent);

    await expect(app.get(AgentRunService).continueInterrupted('t1')).resolves.toBeNull();

    expect(await sqlite.store.findThread('t1')).toMatchObject({ status: 'interrupted' });
  });

  it('answers every pending call "not run" under skip-pending, with reason policy', async () => {
    const { app, agent } = await releaseTwo([chargeV1, receipt], 'skip-pending');

    await runOn(app, agent);

    expect(ran).toEqual([]);
    expect((await versionEvent(app))?.value).toMatchObject({
      decision: 'skip-pending',
      notRun: [{ toolName: 'charge_card', reason: 'policy' }],
    });
  });

  it('gives a policy function the change it decides on', async () => {
    const changes: unknown[] = [];
    const { app, agent } = await releaseTwo([chargeV1, receipt], (change) => {
      changes.push(change);
      return 'adapt';
    });

    await runOn(app, agent);

    expect(changes).toEqual([
      expect.objectContaining({
        threadId: 't1',
        runId: 'r1',
        from: expect.objectContaining({ version: '1.0.0' }),
        to: expect.objectContaining({ version: '2.0.0' }),
        pendingToolCalls: [call('c1', 'charge_card', CHARGE_ARGS)],
      }),
    ]);
  });

  it('continues from the state a policy function migrates, and says so in the event', async () => {
    const { app, agent } = await releaseTwo([chargeV1, receipt], () => ({
      state: { plan: { budget: 10 } },
    }));
    const runtime = new AgentRuntime(agent);
    let seen: unknown;
    const spy: DurableAgent = {
      version: runtime.version,
      describe: () => runtime.describe(),
      toolTraits: (name) => runtime.toolTraits(name),
      run: (handle) => {
        seen = handle.savedState;
        return runtime.run(handle);
      },
    };

    const run = await app.get(AgentRunService).start('alice', INPUT, spy);
    await (run as AgentRun).execute();

    expect(seen).toEqual({ plan: { budget: 10 } });
    expect((await versionEvent(app))?.value).toMatchObject({ decision: 'migrated' });
  });

  it('resumes on the same release without a version event', async () => {
    const same = await instance(sqlite);
    apps.push(same);

    await runOn(same, releaseOne());

    expect(await versionEvent(same)).toBeUndefined();
    expect(ran).toEqual([`charge_card ${CHARGE_ARGS}`]);
  });
});
