/// <reference types="jest" />
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import { idempotencyKeyOf, type ToolFence } from '../agent/tool-fence.js';
import { startMemoryRun } from './memory-run.js';
import type { ContractTool, RunHandleHarness } from './run-handle-harness.js';

const user: AgentMessage = { id: 'u1', role: 'user', content: 'do the steps' };
const call = (id: string, step: number): ToolCall => ({
  id,
  name: 'work',
  arguments: JSON.stringify({ step }),
});

/** A tool that keeps the fence each call was given. */
function fenceRecorder(): { tool: ContractTool; fences: Array<ToolFence | undefined> } {
  const fences: Array<ToolFence | undefined> = [];
  const tool: ContractTool = {
    name: 'work',
    idempotent: true,
    execute: (args, _signal, fence) => {
      fences.push(fence);
      return Promise.resolve(`step ${String(args.step)} done`);
    },
  };
  return { tool, fences };
}

/**
 * Every tool call gets its idempotency key and the attempt's fencing token, where the agent's
 * framework lets tool code read them: in a model step and in a resumed step alike. Runs inside
 * `describeRunHandleContract`, against each agent loop.
 */
export function describeToolFences(harness: RunHandleHarness): void {
  describe('tool fences', () => {
    it("gives each call of a model step its idempotency key and the attempt's fencing token", async () => {
      const { tool, fences } = fenceRecorder();
      const { agent } = harness.agent({
        turns: [{ toolCalls: [call('c1', 1)] }, { toolCalls: [call('c2', 2)] }, { text: 'done' }],
        tools: [tool],
      });

      await startMemoryRun(agent, { history: [user], fencingToken: 7, toolTraits: () => tool })
        .outcome;

      expect(fences).toEqual([
        { idempotencyKey: idempotencyKeyOf('t', 'c1'), fencingToken: 7 },
        { idempotencyKey: idempotencyKeyOf('t', 'c2'), fencingToken: 7 },
      ]);
    });

    it('gives a call of a resumed step the same key under the new attempt’s token', async () => {
      const { tool, fences } = fenceRecorder();
      const asked: AgentMessage = {
        id: 'a1',
        role: 'assistant',
        content: '',
        toolCalls: [call('c1', 1)],
      };
      const { agent } = harness.agent({ turns: [{ text: 'done' }], tools: [tool] });

      await startMemoryRun(agent, {
        history: [user, asked],
        pending: [call('c1', 1)],
        resumed: true,
        fencingToken: 8,
        toolTraits: () => tool,
      }).outcome;

      expect(fences).toEqual([{ idempotencyKey: idempotencyKeyOf('t', 'c1'), fencingToken: 8 }]);
    });
  });
}
