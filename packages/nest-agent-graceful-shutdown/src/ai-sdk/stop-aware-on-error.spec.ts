// Runs on the installed ai (7 here, 6 in the oldest-peers run): a real streamText, a real stop.
import { jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import { StopReason } from '../agent/stop-reason.js';
import { startMemoryRun } from '../testing/memory-run.js';
import { aiSdkAgent } from './ai-sdk-agent.js';
import type { StreamPart, WrappableModel } from './ai-sdk-types.js';
import { installedAi } from './installed-ai.js';
import { scriptedModel } from './scripted-model.fixtures.js';

const user = { id: 'u1', role: 'user' as const, content: 'go' };
const workCall = { id: 'c1', name: 'work', arguments: '{}' };
const work = tool({
  description: 'work',
  inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
  execute: () => 'done',
});
const tools = { work } as ToolSet;

/** A model whose stream reports `error`, as a provider's failure mid-answer does. */
function failingModel(error: Error): WrappableModel {
  const model = {
    specificationVersion: installedAi().modelSpecs[0],
    provider: 'failing',
    modelId: 'failing',
    supportedUrls: {},
    doGenerate: () => Promise.reject(error),
    doStream: () =>
      Promise.resolve({
        stream: new ReadableStream<StreamPart>({
          start: (controller) => (
            controller.enqueue({ type: 'stream-start', warnings: [] }),
            controller.enqueue({ type: 'error', error }),
            controller.close()
          ),
        }),
      }),
  };
  return model as unknown as WrappableModel;
}

/** What the process printed while `work` ran: console.error calls and stderr writes. */
async function printedDuring<T>(work: () => Promise<T>): Promise<{ result: T; printed: string[] }> {
  const printed: string[] = [];
  const consoleError = jest
    .spyOn(console, 'error')
    .mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
  const stderr = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => (printed.push(String(chunk)), true));
  try {
    return { result: await work(), printed };
  } finally {
    consoleError.mockRestore();
    stderr.mockRestore();
  }
}

describe(`the AI SDK adapter's onError on ai ${installedAi().version}`, () => {
  it('prints nothing when a safe point stops the run', async () => {
    const { model } = scriptedModel([{ toolCalls: [workCall] }, { text: 'never' }]);
    const stopSecondCall = {
      preReasoning: (event: { iteration: number }) =>
        event.iteration >= 1 ? { stop: StopReason.Interrupted, detail: 'drain' } : undefined,
    };

    const { result, printed } = await printedDuring(
      () =>
        startMemoryRun(aiSdkAgent({ model, tools, stopWhen: stepCountIs(5) }), {
          history: [user],
          hooks: [stopSecondCall],
        }).outcome,
    );

    expect(result).toMatchObject({ stopReason: StopReason.Interrupted });
    expect(printed).toEqual([]);
  });

  it('prints nothing when a cancel aborts the model call in progress', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { model } = scriptedModel([{ text: 'never' }], () => held);

    const { result, printed } = await printedDuring(async () => {
      const run = startMemoryRun(aiSdkAgent({ model, tools, stopWhen: stepCountIs(5) }), {
        history: [user],
      });
      await new Promise((resolve) => setImmediate(resolve));
      run.control.requestStop(StopReason.Canceled, 'user');
      const outcome = await run.outcome;
      release();
      return outcome;
    });

    expect(result).toMatchObject({ stopReason: StopReason.Canceled });
    expect(printed).toEqual([]);
  });

  it("passes a real failure to the user's onError once, and prints nothing of its own", async () => {
    const seen: unknown[] = [];
    const boom = new Error('provider down');

    const { result, printed } = await printedDuring(
      () =>
        startMemoryRun(
          aiSdkAgent({
            model: failingModel(boom),
            tools,
            onError: ({ error }) => void seen.push(error),
          }),
          { history: [user] },
        ).outcome,
    );

    expect(result).toMatchObject({ stopReason: StopReason.Failed });
    expect(seen).toEqual([boom]);
    expect(printed).toEqual([]);
  });
});
