/// <reference types="jest" />
import type { AgentHook } from '../agent/agent-hook.interface.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import { StopReason } from '../agent/stop-reason.js';
import { OUTCOME_UNKNOWN_RESULT } from '../resume/resume-message.js';
import { startMemoryRun } from './memory-run.js';
import type { ContractTool, RunHandleHarness, ScriptedTurn } from './run-handle-harness.js';
import { describeToolFences } from './tool-fence.contract.js';

const call = (id: string, step: number, name = 'work'): ToolCall => ({
  id,
  name,
  arguments: JSON.stringify({ step }),
});
const user: AgentMessage = { id: 'u1', role: 'user', content: 'do the steps' };

/** Resolves once `condition` holds, polling; fails after `timeoutMs`. */
async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A tool that counts its executions; `hang` ones wait for the run's abort. */
function countingTool(
  options: Partial<ContractTool> & { hang?: (args: Record<string, unknown>) => boolean } = {},
) {
  const executions: Array<Record<string, unknown>> = [];
  const tool: ContractTool = {
    name: 'work',
    ...options,
    execute: (args, signal) => {
      executions.push(args);
      if (!options.hang?.(args)) return Promise.resolve(`step ${String(args.step)} done`);
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    },
  };
  return { tool, executions };
}

/**
 * The behaviour every agent loop driving a `RunHandle` must have: the native runtime and each
 * framework adapter pass it through a `RunHandleHarness` that builds its agent with a scripted model.
 */
export function describeRunHandleContract(name: string, harness: RunHandleHarness): void {
  describe(`${name} (RunHandle contract)`, () => {
    function start(
      turns: ScriptedTurn[],
      tools: ContractTool[],
      options: {
        hooks?: AgentHook[];
        pending?: ToolCall[];
        approved?: string[];
        history?: AgentMessage[];
        hold?: (n: number) => Promise<void> | undefined;
      } = {},
    ) {
      const { agent, modelCalls } = harness.agent({ turns, tools, hold: options.hold });
      const run = startMemoryRun(agent, {
        history: options.history ?? [user],
        pending: options.pending,
        approved: options.approved,
        hooks: options.hooks,
        toolTraits: (toolName) => tools.find((t) => t.name === toolName),
      });
      return { ...run, modelCalls };
    }

    it('completes a run, running each tool call once and checkpointing every message once, in order', async () => {
      const { tool, executions } = countingTool();
      const run = start(
        [{ toolCalls: [call('c1', 1)] }, { toolCalls: [call('c2', 2)] }, { text: 'all done' }],
        [tool],
      );

      expect(await run.outcome).toMatchObject({
        stopReason: StopReason.Completed,
        pendingToolCalls: [],
      });
      expect(executions).toEqual([{ step: 1 }, { step: 2 }]);
      const stored = run.checkpointer.messages;
      expect(stored.map((m) => m.role)).toEqual([
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
      ]);
      expect(stored.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual([
        'c1',
        'c2',
      ]);
      expect(new Set(stored.map((m) => m.id)).size).toBe(stored.length);
      expect(stored.at(-1)?.content).toBe('all done');
    });

    it('checkpoints only new messages: no checkpoint carries a message stored before', async () => {
      const { tool } = countingTool();
      const history: AgentMessage[] = [
        user,
        { id: 'a0', role: 'assistant', content: 'earlier answer' },
        { id: 'u2', role: 'user', content: 'again' },
      ];
      const run = start([{ toolCalls: [call('c1', 1)] }, { text: 'done' }], [tool], { history });

      await run.outcome;

      expect(run.checkpointer.messages.map((m) => m.id)).not.toEqual(
        expect.arrayContaining(['u1', 'a0', 'u2']),
      );
      expect(Math.max(...run.checkpointer.appends.map((batch) => batch.length))).toBe(1);
    });

    it('stops before reasoning when a stop was requested, without calling the model', async () => {
      const run = start([{ text: 'never said' }], [countingTool().tool]);
      run.control.requestStop(StopReason.Interrupted, 'shutdown');

      expect(await run.outcome).toMatchObject({
        stopReason: StopReason.Interrupted,
        phase: 'reasoning',
      });
      expect(run.modelCalls()).toBe(0);
    });

    it('stops at the pre-acting safe point without running the tool, reporting the call as not started', async () => {
      const { tool, executions } = countingTool();
      const stopper: AgentHook = {
        preActing: () => ({ stop: StopReason.Interrupted, detail: 'drain over' }),
      };
      const run = start([{ toolCalls: [call('c1', 1)] }, { text: 'done' }], [tool], {
        hooks: [stopper],
      });

      const outcome = await run.outcome;

      expect(outcome).toMatchObject({ stopReason: StopReason.Interrupted, phase: 'acting' });
      expect(outcome.pendingToolCalls).toEqual([{ ...call('c1', 1), started: false }]);
      expect(executions).toEqual([]);
    });

    it("makes an answer durable in one write with its call's started record (or the framework's state), before the tool runs", async () => {
      const seen: Array<{ answerStored: boolean; started: boolean }> = [];
      let run: ReturnType<typeof start> | undefined;
      const tool: ContractTool = {
        name: 'work',
        execute: () => {
          const stored = run!.checkpointer.messages;
          seen.push({
            answerStored: stored.some((m) => m.toolCalls?.[0]?.id === 'c1'),
            started: run!.checkpointer.records.get('c1')?.status === 'started',
          });
          return Promise.resolve('step 1 done');
        },
      };
      run = start([{ toolCalls: [call('c1', 1)] }, { text: 'done' }], [tool]);

      expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
      expect(seen).toEqual([{ answerStored: true, started: true }]);
      // One write carries the answer, and not alone: with the call's started record, or with the
      // framework's state when the framework saves its own state after each model call.
      const [write, ...more] = run.checkpointer.commits.filter((commit) =>
        commit.messages?.some((m) => m.toolCalls?.[0]?.id === 'c1'),
      );
      expect(more).toEqual([]);
      expect(write.messages).toEqual([
        expect.objectContaining({ role: 'assistant', toolCalls: [call('c1', 1)] }),
      ]);
      if (write.state === undefined) expect(write.startedCalls).toEqual([call('c1', 1)]);
    });

    it('saves the answer on its own, before the run ends, when its call stops at the pre-acting safe point', async () => {
      let storedAtEnd: AgentMessage[] = [];
      let run: ReturnType<typeof start> | undefined;
      const hooks: AgentHook[] = [
        {
          preActing: () => ({ stop: StopReason.Interrupted, detail: 'drain over' }),
          onRunEnd: () => void (storedAtEnd = [...run!.checkpointer.messages]),
        },
      ];
      run = start([{ toolCalls: [call('c1', 1)] }, { text: 'done' }], [countingTool().tool], {
        hooks,
      });

      const outcome = await run.outcome;

      expect(outcome.pendingToolCalls).toEqual([{ ...call('c1', 1), started: false }]);
      expect(storedAtEnd).toEqual([
        expect.objectContaining({ role: 'assistant', toolCalls: [call('c1', 1)] }),
      ]);
      expect(run.checkpointer.records.has('c1')).toBe(false);
      expect(run.checkpointer.commits.flatMap((commit) => commit.startedCalls ?? [])).toEqual([]);
    });

    it('stops a tool call in progress through the signal, reporting it as started', async () => {
      const { tool, executions } = countingTool({ hang: () => true });
      const run = start([{ toolCalls: [call('c1', 1)] }, { text: 'done' }], [tool]);
      await until(() => executions.length === 1, 'the tool to start');

      run.control.requestStop(StopReason.Interrupted, 'shutdown');
      const outcome = await run.outcome;

      expect(outcome).toMatchObject({ stopReason: StopReason.Interrupted, phase: 'acting' });
      expect(outcome.pendingToolCalls).toEqual([{ ...call('c1', 1), started: true }]);
      expect(run.checkpointer.records.get('c1')?.status).toBe('started');
    });

    it('stops a model call in progress on a cancel', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const run = start([{ text: 'slow answer' }], [countingTool().tool], { hold: () => held });
      await until(() => run.modelCalls() === 1, 'the model call');

      run.control.requestStop(StopReason.Canceled, 'user');
      const outcome = await run.outcome;
      release();

      expect(outcome.stopReason).toBe(StopReason.Canceled);
      expect(run.checkpointer.messages.some((m) => m.content === 'slow answer')).toBe(false);
    });

    it('never runs again a pending call whose execution finished, and answers it with the stored result', async () => {
      const { tool, executions } = countingTool();
      const pending = call('c1', 1);
      const history: AgentMessage[] = [
        user,
        { id: 'a1', role: 'assistant', content: '', toolCalls: [pending] },
      ];
      const run = start([{ text: 'done' }], [tool], { history, pending: [pending] });
      run.checkpointer.seed(pending, 'step 1 done earlier');

      expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
      expect(executions).toEqual([]);
      expect(run.checkpointer.messages[0]).toMatchObject({
        role: 'tool',
        toolCallId: 'c1',
        content: 'step 1 done earlier',
      });
    });

    it('answers a pending call that may have run as of unknown outcome unless its tool is idempotent', async () => {
      const risky = countingTool();
      const pending = call('c1', 1);
      const history: AgentMessage[] = [
        user,
        { id: 'a1', role: 'assistant', content: '', toolCalls: [pending] },
      ];
      const run = start([{ text: 'done' }], [risky.tool], { history, pending: [pending] });
      run.checkpointer.seed(pending);
      await run.outcome;

      const safe = countingTool({ idempotent: true });
      const again = start([{ text: 'done' }], [safe.tool], { history, pending: [pending] });
      again.checkpointer.seed(pending);
      await again.outcome;

      expect(risky.executions).toEqual([]);
      expect(run.checkpointer.messages[0]).toMatchObject({
        role: 'tool',
        toolCallId: 'c1',
        content: OUTCOME_UNKNOWN_RESULT,
      });
      expect(safe.executions).toEqual([{ step: 1 }]);
    });

    it('pauses before a call that needs approval, and runs it once approved', async () => {
      const { tool, executions } = countingTool({ requiresApproval: true });
      const run = start([{ toolCalls: [call('c1', 1)] }, { text: 'done' }], [tool]);

      const paused = await run.outcome;
      const history = [user, ...run.checkpointer.messages];
      const approved = start([{ text: 'done' }], [tool], {
        history,
        pending: [call('c1', 1)],
        approved: ['c1'],
      });

      expect(paused).toMatchObject({
        stopReason: StopReason.AwaitingApproval,
        approvals: [call('c1', 1)],
      });
      expect(await approved.outcome).toMatchObject({ stopReason: StopReason.Completed });
      expect(executions).toEqual([{ step: 1 }]);
    });

    it('records concurrent calls of one step each on its own, keeping the finished ones when the rest are stopped', async () => {
      const { tool, executions } = countingTool({
        parallelSafe: true,
        hang: (args) => args.step !== 1,
      });
      const run = start(
        [{ toolCalls: [call('c1', 1), call('c2', 2), call('c3', 3)] }, { text: 'done' }],
        [tool],
      );
      await until(
        () => run.checkpointer.records.get('c1')?.status === 'finished' && executions.length >= 2,
        'the first call to finish and another to run',
      );

      run.control.requestStop(StopReason.Interrupted, 'shutdown');
      const outcome = await run.outcome;

      expect(outcome.stopReason).toBe(StopReason.Interrupted);
      expect(
        run.checkpointer.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId),
      ).toEqual(['c1']);
      expect(outcome.pendingToolCalls.map((c) => c.id).sort()).toEqual(['c2', 'c3']);
      expect(outcome.pendingToolCalls.filter((c) => c.started).map((c) => c.id)).toEqual(
        executions.filter((a) => a.step !== 1).map((a) => `c${String(a.step)}`),
      );
    });

    it("streams the answer's text and each tool result as AG-UI events", async () => {
      const { tool } = countingTool();
      const run = start([{ toolCalls: [call('c1', 1)] }, { text: 'all done' }], [tool]);
      await run.outcome;

      const types = run.events.map((event) => event.type);
      expect(types).toEqual(
        expect.arrayContaining([
          'TOOL_CALL_START',
          'TOOL_CALL_END',
          'TOOL_CALL_RESULT',
          'TEXT_MESSAGE_START',
          'TEXT_MESSAGE_END',
        ]),
      );
      const text = run.events
        .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
        .map((event) => (event as unknown as { delta: string }).delta);
      expect(text.join('')).toBe('all done');
    });

    describeToolFences(harness);
  });
}
