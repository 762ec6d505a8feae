import { Logger } from '@nestjs/common';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { AgentModel, ModelResponse } from '../agent/agent-model.interface.js';
import type { AgentTool } from '../agent/agent-tool.interface.js';
import { AgentRuntime } from '../runtime/agent-runtime.js';
import { RunControl } from '../agent/run-control.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import type { StepCheckpointer } from '../contracts/step-checkpointer.interface.js';
import { StopReason } from '../agent/stop-reason.js';
import { resolveShutdownOptions } from '../options/resolve-shutdown-options.js';
import { InProcessSignalBus } from '../signals/in-process-signal-bus.js';
import { GracefulShutdownHook, type RunFinalizer } from './graceful-shutdown.hook.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import { ShutdownCoordinator } from './shutdown-coordinator.service.js';
import { waitFor } from 'dev-services';

interface Finalized {
  outcome: RunOutcome;
  interrupt: InterruptedState | null;
}

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const call = (id: string): ToolCall => ({ id, name: 'echo', arguments: '{}' });
const echo: AgentTool = {
  definition: { name: 'echo', description: 'echo', parameters: { type: 'object' } },
  execute: async () => 'echoed',
};

/** Asks for two tool calls, then answers; `reason` can make a call wait or throw. */
function twoCallModel(reason: () => Promise<void> = async () => undefined): AgentModel {
  let calls = 0;
  return {
    name: 'two-calls',
    async generate(): Promise<ModelResponse> {
      await reason();
      return calls++ === 0
        ? { content: '', toolCalls: [call('a'), call('b')] }
        : { content: 'done', toolCalls: [] };
    },
  };
}

/** The shutdown settings these specs vary. */
interface SetupOptions {
  drainTimeoutMs?: number;
  shutdownTimeoutMs?: number;
  defaultStepDurationMs?: number;
}

function setup(options: SetupOptions = {}, finalize?: RunFinalizer['finalize']) {
  const registry = new InFlightRunRegistry();
  const coordinator = new ShutdownCoordinator(
    resolveShutdownOptions({
      shutdown: {
        handleSignals: false,
        drainTimeoutMs: options.drainTimeoutMs,
        timeoutMs: options.shutdownTimeoutMs,
      },
      runs: { defaultStepDurationMs: options.defaultStepDurationMs },
    }),
    registry,
  );
  const signals = new InProcessSignalBus();
  const finalized: Finalized[] = [];
  const finalizer: RunFinalizer = {
    finalize:
      finalize ?? (async (outcome, interrupt) => void finalized.push({ outcome, interrupt })),
  };
  const control = new RunControl();
  const start = (
    model: AgentModel,
    checkpointer: StepCheckpointer = { append: async () => undefined },
  ) => {
    const hook = new GracefulShutdownHook({
      registry,
      coordinator,
      signals,
      finalizer,
      defaultStepDurationMs: options.defaultStepDurationMs,
    });
    const history: AgentMessage[] = [{ id: 'u1', role: 'user', content: 'go' }];
    return new AgentRuntime({ model, tools: [echo] }).execute(
      { threadId: 't1', runId: 'r1', history },
      { hooks: [hook], control, checkpointer, emit: () => undefined },
    );
  };
  return { registry, coordinator, signals, finalized, control, start };
}

/** Holds the run inside the checkpoint of the first tool result, between two safe points. */
function heldAtFirstToolResult(): StepCheckpointer & { held: boolean; release: () => void } {
  const { opened, open } = gate();
  const checkpointer = {
    held: false,
    release: open,
    async append(messages: readonly AgentMessage[]) {
      if (messages[0]?.toolCallId !== 'a') return;
      checkpointer.held = true;
      await opened;
    },
  };
  return checkpointer;
}

// The coordinator logs every phase; the assertions below are what matters here.
beforeAll(() => Logger.overrideLogger(false));

describe('GracefulShutdownHook in-flight registration', () => {
  it('keeps the run in the registry while it is in flight', async () => {
    const { registry, control, start } = setup();
    const model = gate();
    const run = start(twoCallModel(() => model.opened));

    await waitFor(() => registry.size === 1, 'the run to register');
    expect(registry.list()).toEqual([{ threadId: 't1', runId: 'r1', control }]);
    model.open();
    await run;
  });

  it('empties the registry after a run that completes', async () => {
    const { registry, start } = setup();

    await expect(start(twoCallModel())).resolves.toMatchObject({
      stopReason: StopReason.Completed,
    });
    expect(registry.size).toBe(0);
  });

  it('empties the registry after a run whose model throws', async () => {
    const { registry, start } = setup();

    const outcome = await start(twoCallModel(() => Promise.reject(new Error('model down'))));

    expect(outcome.stopReason).toBe(StopReason.Failed);
    expect(registry.size).toBe(0);
  });

  it('stops the run as canceled, without an interrupt marker, when a cancel is published on the bus', async () => {
    const { registry, signals, finalized, start } = setup();
    const run = start(twoCallModel(() => gate().opened));
    await waitFor(() => registry.size === 1, 'the run to register');

    await signals.publishCancel({ threadId: 't1', runId: 'r1' });

    await expect(run).resolves.toMatchObject({ stopReason: StopReason.Canceled });
    expect(finalized).toEqual([
      { outcome: expect.objectContaining({ stopReason: StopReason.Canceled }), interrupt: null },
    ]);
    expect(registry.size).toBe(0);
  });
});

describe('GracefulShutdownHook during a shutdown', () => {
  it('interrupts an in-flight run at its next safe point and saves its InterruptedState', async () => {
    const { registry, coordinator, finalized, control, start } = setup({
      drainTimeoutMs: 0,
      shutdownTimeoutMs: 10_000,
    });
    const checkpointer = heldAtFirstToolResult();
    const run = start(twoCallModel(), checkpointer);
    await waitFor(() => checkpointer.held, 'the first tool result to be checkpointed');

    const shutdown = coordinator.shutdown();
    await waitFor(() => control.stopRequest !== undefined, 'the coordinator to stop the run');
    checkpointer.release();

    await expect(run).resolves.toMatchObject({
      stopReason: StopReason.Interrupted,
      phase: 'acting',
    });
    await shutdown;
    expect(finalized).toHaveLength(1);
    expect(finalized[0].interrupt).toEqual({
      reason: 'shutdown',
      interruptedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      runId: 'r1',
      phase: 'acting',
      iteration: 1,
      pendingToolCalls: [{ ...call('b'), started: false }],
    });
    expect(registry.size).toBe(0);
  });

  it('resolves the shutdown only after the finalizer of the interrupted run has finished', async () => {
    const order: string[] = [];
    const { coordinator, registry, start } = setup(
      { drainTimeoutMs: 0, shutdownTimeoutMs: 10_000 },
      async () => {
        order.push('finalize started');
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push('finalize finished');
      },
    );
    const run = start(twoCallModel(() => gate().opened));
    await waitFor(() => registry.size === 1, 'the run to register');

    await coordinator.shutdown().then(() => order.push('shutdown resolved'));

    expect(order).toEqual(['finalize started', 'finalize finished', 'shutdown resolved']);
    await expect(run).resolves.toMatchObject({ stopReason: StopReason.Interrupted });
  });

  it('lets a run that fits in the drain budget complete during the shutdown', async () => {
    const { coordinator, finalized, control, start } = setup({
      drainTimeoutMs: 10_000,
      shutdownTimeoutMs: 20_000,
    });
    const checkpointer = heldAtFirstToolResult();
    const run = start(twoCallModel(), checkpointer);
    await waitFor(() => checkpointer.held, 'the run to be in flight');

    const shutdown = coordinator.shutdown();
    expect(coordinator.isShuttingDown).toBe(true);
    checkpointer.release();

    await expect(run).resolves.toMatchObject({ stopReason: StopReason.Completed });
    await shutdown;
    expect(control.stopRequest).toBeUndefined();
    expect(finalized).toEqual([
      { outcome: expect.objectContaining({ stopReason: StopReason.Completed }), interrupt: null },
    ]);
  });

  it('rejects the shutdown at its deadline when a run never ends, naming the runs not saved', async () => {
    const { coordinator, registry, start } = setup(
      { drainTimeoutMs: 0, shutdownTimeoutMs: 300 },
      () => gate().opened,
    );
    void start(twoCallModel(() => gate().opened));
    await waitFor(() => registry.size === 1, 'the run to register');

    await expect(coordinator.shutdown()).rejects.toThrow(
      /deadline of 300 ms passed with 1 runs not saved/,
    );
  });
});

describe('GracefulShutdownHook deadline-aware steps', () => {
  /** A model whose calls are quick but which declares `expectedDurationMs`. */
  const declaring = (expectedDurationMs: number): AgentModel => ({
    ...twoCallModel(),
    expectedDurationMs,
  });

  /** Runs `model` until its first tool result, starts a 5 s drain there, and lets the run go on. */
  async function throughDrain(model: AgentModel, defaultStepDurationMs: number) {
    const { coordinator, finalized, start } = setup({
      drainTimeoutMs: 5_000,
      shutdownTimeoutMs: 10_000,
      defaultStepDurationMs,
    });
    const checkpointer = heldAtFirstToolResult();
    const run = start(model, checkpointer);
    await waitFor(() => checkpointer.held, 'the first tool result to be checkpointed');
    const shutdown = coordinator.shutdown();
    await waitFor(() => coordinator.isShuttingDown, 'the drain to start');
    checkpointer.release();
    const outcome = await run;
    await shutdown;
    return { outcome, finalized };
  }

  it('does not start a step expected to outlast the drain, and interrupts the run there instead', async () => {
    // The echo tool declares no duration: the default, short here, lets its second call run.
    const { outcome, finalized } = await throughDrain(declaring(60_000), 10);

    expect(outcome).toMatchObject({
      stopReason: StopReason.Interrupted,
      phase: 'reasoning',
      detail: expect.stringMatching(/would outlast the drain/),
    });
    expect(finalized[0].interrupt).toMatchObject({ reason: 'shutdown', phase: 'reasoning' });
  });

  it('lets a run whose steps fit in the drain finish during it', async () => {
    const { outcome } = await throughDrain(declaring(10), 10);

    expect(outcome).toMatchObject({ stopReason: StopReason.Completed });
  });

  it('applies the default expected duration to a tool that declares none', async () => {
    const { outcome } = await throughDrain(declaring(10), 60_000);

    expect(outcome).toMatchObject({
      stopReason: StopReason.Interrupted,
      phase: 'acting',
      detail: expect.stringMatching(/tool call echo/),
    });
  });
});

describe('GracefulShutdownHook lease', () => {
  it('stops renewing the lease once the end is saved, before the run has finished ending', async () => {
    const held = new Set<string>();
    const keeper = {
      hold: (runKey: string) => {
        held.add(runKey);
        return () => held.delete(runKey);
      },
    };
    let endStream!: () => void;
    const streamEnded = new Promise<void>((resolve) => (endStream = resolve));
    const heldWhileEnding: boolean[] = [];
    const finalizer: RunFinalizer = {
      finalize: async (_outcome, _interrupt, onSaved) => {
        heldWhileEnding.push(held.has('key-1'));
        onSaved?.();
        heldWhileEnding.push(held.has('key-1'));
        await streamEnded;
      },
    };
    const { registry, coordinator, signals } = setup();
    const hook = new GracefulShutdownHook({
      registry,
      coordinator,
      signals,
      finalizer,
      lease: { keeper, runKey: 'key-1' },
    });
    const control = new RunControl();
    hook.onRunStart({ threadId: 't1', runId: 'r1', iteration: 0, control, messages: [] });
    const outcome: RunOutcome = {
      stopReason: StopReason.Completed,
      iteration: 1,
      phase: 'reasoning',
      pendingToolCalls: [],
    };

    const ending = hook.onRunEnd({ threadId: 't1', runId: 'r1', iteration: 1, outcome });
    await waitFor(() => heldWhileEnding.length === 2, 'the end saved');
    expect(heldWhileEnding).toEqual([true, false]);
    endStream();
    await ending;
  });
});
