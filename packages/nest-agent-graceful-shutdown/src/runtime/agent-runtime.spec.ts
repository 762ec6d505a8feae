import type { AgentDefinition } from '../agent/agent-definition.js';
import type { AgentHook, RunEndEvent } from '../agent/agent-hook.interface.js';
import type { AgentMessage } from '../agent/agent-message.js';
import type { AgentTool } from '../agent/agent-tool.interface.js';
import { AgentRuntime } from './agent-runtime.js';
import { answer, ask, call, scriptedModel } from './agent-runtime.fixtures.js';
import { RunControl } from '../agent/run-control.js';
import { StopReason } from '../agent/stop-reason.js';

function echoTool(executed: unknown[] = []): AgentTool {
  return {
    definition: {
      name: 'echo',
      description: 'returns its arguments',
      parameters: { type: 'object' },
    },
    async execute(args) {
      executed.push(args);
      return `echo ${JSON.stringify(args)}`;
    },
  };
}

/** Names every event it sees, prefixed with `label`, and never stops the run. */
function recordingHook(log: string[], label = ''): AgentHook {
  const note = (event: string) => () => {
    log.push(`${label}${event}`);
  };
  return {
    onRunStart: note('onRunStart'),
    preReasoning: note('preReasoning'),
    postReasoning: note('postReasoning'),
    preActing: note('preActing'),
    postActing: note('postActing'),
    onRunEnd: note('onRunEnd'),
  };
}

function endRecorder(ends: RunEndEvent[]): AgentHook {
  return { onRunEnd: (event) => void ends.push(event) };
}

function run(agent: AgentDefinition, hooks: AgentHook[] = []) {
  const user: AgentMessage = { id: 'u1', role: 'user', content: 'go' };
  return new AgentRuntime(agent).execute(
    { threadId: 't1', runId: 'r1', history: [user] },
    {
      hooks,
      control: new RunControl(),
      checkpointer: { append: async () => undefined },
      emit: () => undefined,
    },
  );
}

describe('AgentRuntime hooks', () => {
  it('calls the hooks at each point of the loop, with onRunStart first and onRunEnd last', async () => {
    const log: string[] = [];
    const { model } = scriptedModel(ask(call('a'), call('b')), answer('done'));

    await run({ model, tools: [echoTool()] }, [recordingHook(log)]);

    expect(log).toEqual([
      'onRunStart',
      'preReasoning',
      'postReasoning',
      'preActing',
      'postActing',
      'preActing',
      'postActing',
      'preReasoning',
      'postReasoning',
      'onRunEnd',
    ]);
  });

  it('delivers each event to every hook in the order the hooks were given', async () => {
    const log: string[] = [];
    const { model } = scriptedModel(ask(call('a')), answer('done'));

    await run({ model, tools: [echoTool()] }, [
      recordingHook(log, 'first:'),
      recordingHook(log, 'second:'),
    ]);

    const events = [
      'onRunStart',
      'preReasoning',
      'postReasoning',
      'preActing',
      'postActing',
      'preReasoning',
      'postReasoning',
      'onRunEnd',
    ];
    expect(log).toEqual(events.flatMap((event) => [`first:${event}`, `second:${event}`]));
  });

  it('stops before the model is called when a hook stops the run at preReasoning', async () => {
    const { model, requests } = scriptedModel(answer('never'));
    const stopper: AgentHook = { preReasoning: () => ({ stop: StopReason.Interrupted }) };

    const outcome = await run({ model, tools: [] }, [stopper]);

    expect(requests).toHaveLength(0);
    expect(outcome).toMatchObject({
      stopReason: StopReason.Interrupted,
      phase: 'reasoning',
      iteration: 0,
    });
  });

  it('stops before the tool runs when a hook stops the run at preActing, listing the calls as not started', async () => {
    const executed: unknown[] = [];
    const calls = [call('a', 'echo', '{"n":1}'), call('b', 'echo', '{"n":2}')];
    const { model } = scriptedModel(ask(...calls), answer('never'));
    const stopper: AgentHook = { preActing: () => ({ stop: StopReason.Interrupted }) };

    const outcome = await run({ model, tools: [echoTool(executed)] }, [stopper]);

    expect(executed).toEqual([]);
    expect(outcome).toMatchObject({
      stopReason: StopReason.Interrupted,
      phase: 'acting',
      iteration: 1,
    });
    expect(outcome.pendingToolCalls).toEqual(calls.map((c) => ({ ...c, started: false })));
  });

  it('lets the first hook that stops win, so later hooks are not asked at that point', async () => {
    const log: string[] = [];
    const { model } = scriptedModel(answer('never'));
    const stopper: AgentHook = {
      preReasoning: () => ({ stop: StopReason.Canceled, detail: 'first' }),
    };

    const outcome = await run({ model, tools: [] }, [stopper, recordingHook(log)]);

    expect(log).toEqual(['onRunStart', 'onRunEnd']);
    expect(outcome).toMatchObject({ stopReason: StopReason.Canceled, detail: 'first' });
  });
});

describe('AgentRuntime stop reasons', () => {
  const throwing = (error: Error) => scriptedModel(() => Promise.reject(error)).model;
  const stopAt = (stop: StopReason): AgentHook => ({ preReasoning: () => ({ stop }) });
  const scenarios: Array<[StopReason, () => { agent: AgentDefinition; hooks: AgentHook[] }]> = [
    [
      StopReason.Completed,
      () => ({ agent: { model: scriptedModel(answer('done')).model, tools: [] }, hooks: [] }),
    ],
    [
      StopReason.Canceled,
      () => ({
        agent: { model: scriptedModel(answer('x')).model, tools: [] },
        hooks: [stopAt(StopReason.Canceled)],
      }),
    ],
    [
      StopReason.Interrupted,
      () => ({
        agent: { model: scriptedModel(answer('x')).model, tools: [] },
        hooks: [stopAt(StopReason.Interrupted)],
      }),
    ],
    [
      StopReason.Failed,
      () => ({ agent: { model: throwing(new Error('model down')), tools: [] }, hooks: [] }),
    ],
    [
      StopReason.StepLimit,
      () => ({
        agent: {
          model: scriptedModel(ask(call('a'))).model,
          tools: [echoTool()],
          maxIterations: 2,
        },
        hooks: [],
      }),
    ],
  ];

  it.each(scenarios)(
    'reports a run that ends %s with that reason to onRunEnd and from run()',
    async (reason, make) => {
      const ends: RunEndEvent[] = [];
      const { agent, hooks } = make();

      const outcome = await run(agent, [...hooks, endRecorder(ends)]);

      expect(outcome.stopReason).toBe(reason);
      expect(ends).toHaveLength(1);
      expect(ends[0].outcome).toBe(outcome);
    },
  );

  it('ends the run failed with the error the model threw', async () => {
    const error = new Error('model down');

    const outcome = await run({ model: throwing(error), tools: [] });

    expect(outcome).toMatchObject({ stopReason: StopReason.Failed, phase: 'reasoning' });
    expect(outcome.error).toBe(error);
  });

  it('ends the run with step_limit after maxIterations model calls without a final answer', async () => {
    const { model, requests } = scriptedModel(ask(call('a')));

    const outcome = await run({ model, tools: [echoTool()], maxIterations: 3 });

    expect(requests).toHaveLength(3);
    expect(outcome).toMatchObject({ stopReason: StopReason.StepLimit, iteration: 3 });
  });
});
