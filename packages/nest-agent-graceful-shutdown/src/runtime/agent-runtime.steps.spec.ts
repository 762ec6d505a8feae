import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { AgentModel } from '../agent/agent-model.interface.js';
import type { AgentTool } from '../agent/agent-tool.interface.js';
import { AgentRuntime } from './agent-runtime.js';
import { answer, ask, call, scriptedModel } from './agent-runtime.fixtures.js';
import { RunControl } from '../agent/run-control.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import type { StepProgress } from '../contracts/step-checkpointer.interface.js';
import { StopReason } from '../agent/stop-reason.js';

interface Checkpoint {
  messages: AgentMessage[];
  progress: StepProgress;
}

/** Never settles and ignores every signal: the runtime alone must stop waiting for it. */
const stall = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** Rejects when `promise` has not settled within `ms`, so a hang fails the test instead of the runner. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function tool(name: string, execute: AgentTool['execute']): AgentTool {
  return { definition: { name, description: name, parameters: { type: 'object' } }, execute };
}

function start(
  model: AgentModel,
  tools: AgentTool[],
  control = new RunControl(),
  checkpoints: Checkpoint[] = [],
) {
  const checkpointer = {
    async append(messages: readonly AgentMessage[], progress: StepProgress) {
      checkpoints.push({ messages: [...messages], progress: { ...progress } });
    },
  };
  const user: AgentMessage = { id: 'u1', role: 'user', content: 'go' };
  const outcome: Promise<RunOutcome> = new AgentRuntime({ model, tools }).execute(
    { threadId: 't1', runId: 'r1', history: [user] },
    { hooks: [], control, checkpointer, emit: () => undefined },
  );
  return { outcome, checkpoints, control };
}

describe('AgentRuntime stop requests during a call', () => {
  it('ends the run with the requested reason when a model call that ignores its signal is in progress', async () => {
    const modelCalled = deferred();
    const { model } = scriptedModel(() => {
      modelCalled.resolve();
      return stall();
    });
    const { outcome, control } = start(model, []);
    await within(modelCalled.promise, 5_000, 'the model call');

    control.requestStop(StopReason.Canceled, 'user');

    await expect(within(outcome, 5_000, 'the run')).resolves.toMatchObject({
      stopReason: StopReason.Canceled,
      detail: 'user',
      phase: 'reasoning',
    });
  });

  it('lists the tool call in progress as started when the run is stopped during it', async () => {
    const toolCalled = deferred();
    const calls = [call('a', 'slow'), call('b', 'slow')];
    const { model } = scriptedModel(ask(...calls), answer('never'));
    const slow = tool('slow', () => {
      toolCalled.resolve();
      return stall();
    });
    const { outcome, control } = start(model, [slow]);
    await within(toolCalled.promise, 5_000, 'the tool call');

    control.requestStop(StopReason.Interrupted, 'shutdown');

    const result = await within(outcome, 5_000, 'the run');
    expect(result).toMatchObject({
      stopReason: StopReason.Interrupted,
      phase: 'acting',
      iteration: 1,
    });
    expect(result.pendingToolCalls).toEqual([
      { ...calls[0], started: true },
      { ...calls[1], started: false },
    ]);
  });
});

describe('AgentRuntime tool failures', () => {
  const failures: Array<[string, ToolCall, AgentTool]> = [
    [
      'a tool that throws',
      call('c1', 'broken'),
      tool('broken', () => Promise.reject(new Error('disk full'))),
    ],
    ['an unknown tool', call('c1', 'missing'), tool('broken', () => Promise.resolve('unused'))],
    [
      'arguments that are not JSON',
      call('c1', 'echo', '{"n": 1'),
      tool('echo', () => Promise.resolve('unused')),
    ],
  ];

  it.each(failures)(
    'reports %s to the model as an error result and goes on',
    async (_, failing, available) => {
      const { model, requests } = scriptedModel(ask(failing), answer('recovered'));

      const outcome = await start(model, [available]).outcome;

      expect(outcome.stopReason).toBe(StopReason.Completed);
      const seen = requests[1].messages.at(-1);
      expect(seen).toMatchObject({ role: 'tool', toolCallId: 'c1' });
      expect(seen?.content).toMatch(/^error:/);
    },
  );

  it('passes the message of the error a tool threw to the model', async () => {
    const { model, requests } = scriptedModel(ask(call('c1', 'broken')), answer('recovered'));

    await start(model, [tool('broken', () => Promise.reject(new Error('disk full')))]).outcome;

    expect(requests[1].messages.at(-1)?.content).toBe('error: disk full');
  });
});

describe('AgentRuntime checkpoints', () => {
  it('checkpoints every finished step once, with only its new messages, before the next step starts', async () => {
    const checkpoints: Checkpoint[] = [];
    const durableAtModelCall: number[] = [];
    const durableAtToolCall: number[] = [];
    const { model } = scriptedModel(
      async () => (durableAtModelCall.push(checkpoints.length), ask(call('a'))),
      async () => (durableAtModelCall.push(checkpoints.length), answer('done')),
    );
    const echo = tool('echo', async () => (durableAtToolCall.push(checkpoints.length), 'echoed'));

    await start(model, [echo], new RunControl(), checkpoints).outcome;

    expect(checkpoints.map((c) => c.messages.map((m) => m.role))).toEqual([
      ['assistant'],
      ['tool'],
      ['assistant'],
    ]);
    // The answer is written with its call's started record, so as of the acting phase.
    expect(checkpoints.map((c) => c.progress)).toEqual([
      { iteration: 1, phase: 'acting' },
      { iteration: 1, phase: 'acting' },
      { iteration: 2, phase: 'reasoning' },
    ]);
    expect(durableAtToolCall).toEqual([1]);
    expect(durableAtModelCall).toEqual([0, 2]);
  });

  it('never checkpoints a message twice nor the history the run started from', async () => {
    const checkpoints: Checkpoint[] = [];
    const { model } = scriptedModel(ask(call('a'), call('b')), ask(call('c')), answer('done'));

    await start(model, [tool('echo', async () => 'echoed')], new RunControl(), checkpoints).outcome;

    const ids = checkpoints.flatMap((c) => c.messages.map((m) => m.id));
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain('u1');
  });
});
