import type { ToolCall } from '../agent/agent-message.js';
import { CallAbortedError } from '../agent/abortable.js';
import { RunControl } from '../agent/run-control.js';
import { StopReason } from '../agent/stop-reason.js';
import { MemoryCheckpointer } from '../testing/memory-checkpointer.js';
import { DurableRunHandle } from './durable-run-handle.js';

const call: ToolCall = { id: 'c1', name: 'stubborn', arguments: '{}' };

/** A handle on a memory store that reports the calls it stops without waiting for. */
function handleReporting() {
  const control = new RunControl();
  const leftRunning: Array<{ call: ToolCall; work: Promise<unknown> }> = [];
  const handle = new DurableRunHandle({
    threadId: 't',
    runId: 'r',
    history: [{ id: 'a1', role: 'assistant', content: '', toolCalls: [call] }],
    hooks: [],
    control,
    checkpointer: new MemoryCheckpointer(),
    emit: () => undefined,
    toolLeftRunning: (left, work) => void leftRunning.push({ call: left, work }),
  });
  return { handle, control, leftRunning };
}

/** Resolves once `started` was called, the way a tool begins its work. */
function startedSignal() {
  let mark!: () => void;
  const started = new Promise<void>((resolve) => (mark = resolve));
  return { started, mark };
}

describe('a tool call the run stops without waiting for', () => {
  it('is reported with its work when the tool ignores the abort', async () => {
    const { handle, control, leftRunning } = handleReporting();
    const { started, mark } = startedSignal();
    let finish!: (value: string) => void;
    const running = handle.runTool(
      call,
      () => (mark(), new Promise<string>((resolve) => (finish = resolve))),
    );
    await started;

    control.requestStop(StopReason.Interrupted, 'shutdown');

    await expect(running).rejects.toBeInstanceOf(CallAbortedError);
    expect(leftRunning.map((left) => left.call)).toEqual([call]);
    finish('late');
    await expect(leftRunning[0].work).resolves.toBe('late');
  });

  it('is reported with settled work when the tool honours the abort', async () => {
    const { handle, control, leftRunning } = handleReporting();
    const { started, mark } = startedSignal();
    const running = handle.runTool(call, (signal) => {
      mark();
      return new Promise<string>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    });
    await started;

    control.requestStop(StopReason.Canceled, 'user');

    await expect(running).rejects.toBeInstanceOf(CallAbortedError);
    await expect(leftRunning[0].work).rejects.toThrow('aborted');
  });

  it('is not reported when the tool finishes', async () => {
    const { handle, leftRunning } = handleReporting();

    await handle.runTool(call, () => Promise.resolve('done'));

    expect(leftRunning).toEqual([]);
  });
});
