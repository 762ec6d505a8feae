import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { StopReason } from '../agent/stop-reason.js';
import { startMemoryRun } from '../testing/memory-run.js';
import { langGraphAgent } from './langgraph-agent.js';
import { releaseOne, releaseTwo, user } from './release-graphs.fixtures.js';
import { reactGraph, ScriptedChatModel } from './scripted-chat-model.fixtures.js';

/** The `charge` tool of a release: release 2 requires a `currency`; `charged` records what ran. */
function chargeTool(release: 1 | 2, charged: unknown[] = []) {
  const amount = z.object({ amount: z.number() });
  const schema = release === 1 ? amount : amount.extend({ currency: z.string() });
  return tool(
    (args: unknown) => {
      charged.push(args);
      return 'charged';
    },
    { name: 'charge', description: 'charges the card', schema },
  );
}

const model = () => new ScriptedChatModel([{ text: 'done' }]);
const charge = (args: object) => ({ id: 'c1', name: 'charge', arguments: JSON.stringify(args) });

describe('LangGraph agent shape and tool input check', () => {
  it('describes the same graph the same way every time it is built', () => {
    const first = langGraphAgent(reactGraph(model(), [chargeTool(1)])).describe?.();
    const second = langGraphAgent(reactGraph(model(), [chargeTool(1)])).describe?.();

    expect(JSON.stringify(first)).toBe(JSON.stringify(second));
    expect(first?.graph).toEqual({ nodes: ['agent', 'tools'], channels: ['messages'] });
    expect(first?.tools).toEqual([
      { name: 'charge', inputSchema: expect.objectContaining({ required: ['amount'] }) },
    ]);
  });

  it('describes a new node and a new channel', () => {
    const shape = langGraphAgent(releaseTwo(model(), [])).describe?.();

    expect(shape?.graph).toEqual({
      nodes: ['agent', 'planner', 'tools'],
      channels: ['messages', 'plan'],
    });
    expect(shape).not.toEqual(langGraphAgent(releaseOne(model())).describe?.());
  });

  it("describes a change of a tool's input schema", () => {
    const one = langGraphAgent(reactGraph(model(), [chargeTool(1)])).describe?.();
    const two = langGraphAgent(reactGraph(model(), [chargeTool(2)])).describe?.();

    expect(two?.tools[0].inputSchema).toMatchObject({ required: ['amount', 'currency'] });
    expect(two).not.toEqual(one);
  });

  it('refuses a call missing a newly required field with the schema check of LangChain', async () => {
    const agent = langGraphAgent(reactGraph(model(), [chargeTool(2)]));

    expect(await agent.checkToolInput?.(charge({ amount: 10, currency: 'EUR' }))).toEqual({
      ok: true,
    });
    const refused = await agent.checkToolInput?.(charge({ amount: 10 }));
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('currency') });
    expect(refused).toMatchObject({
      error: expect.stringContaining('did not match expected schema'),
    });
  });

  it('never runs a tool on a call its schema refuses', async () => {
    const charged: unknown[] = [];
    const scripted = new ScriptedChatModel([
      { toolCalls: [charge({ amount: 10 })] },
      { text: 'could not charge' },
    ]);
    const run = startMemoryRun(langGraphAgent(reactGraph(scripted, [chargeTool(2, charged)])), {
      history: [user],
    });

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(charged).toEqual([]);
    expect(run.checkpointer.messages.find((m) => m.role === 'tool')?.content).toContain(
      'did not match expected schema',
    );
  });
});
