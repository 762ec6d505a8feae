import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, Runner, Usage, tool, type AgentInputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
// The handle, the store and the adapter measured straight from the package's source.
import { RunControl } from '../../packages/nest-agent-graceful-shutdown/src/agent/run-control';
import { StopReason } from '../../packages/nest-agent-graceful-shutdown/src/agent/stop-reason';
import { driveRun } from '../../packages/nest-agent-graceful-shutdown/src/handle/drive-run';
import { DurableRunHandle } from '../../packages/nest-agent-graceful-shutdown/src/handle/durable-run-handle';
import { openAiAgent } from '../../packages/nest-agent-graceful-shutdown/src/openai-agents/open-ai-agent';
import { openSqliteStore } from '../../packages/nest-agent-graceful-shutdown/src/session/sqlite-store.fixtures';
import { StoreCheckpointer } from '../../packages/nest-agent-graceful-shutdown/src/session/store-checkpointer';
import { formatMicros, renderTable } from './bench-table';

/** How much work the OpenAI Agents SDK overhead benchmark does. */
export interface OpenAiAgentsOverheadOptions {
  /** Measured runs per variant. */
  runs: number;
  /** Tool rounds per run (each round is one model call and one tool call; one more model call answers). */
  iterations: number;
  /** Unmeasured runs per variant first. */
  warmupRuns: number;
}

/** Median and p90 of one variant, in microseconds. */
export interface OverheadTimings {
  medianRunMicros: number;
  p90RunMicros: number;
  medianStepMicros: number;
}

/** What the benchmark found. */
export interface OpenAiAgentsOverheadResult {
  options: OpenAiAgentsOverheadOptions;
  stepsPerRun: number;
  plain: OverheadTimings;
  withModule: OverheadTimings;
}

/** A model that answers at once: a call of `noop` per round, then a text answer. */
class InstantModel implements Model {
  constructor(private readonly rounds: number) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return { usage: new Usage(), output: this.decide(request.input) };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const output = this.decide(request.input);
    yield { type: 'response_done', response: { id: randomUUID(), usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: output as never } };
  }

  private decide(input: string | AgentInputItem[]): ModelResponse['output'] {
    const done = typeof input === 'string' ? 0 : input.filter((item) => item.type === 'function_call_result').length;
    if (done < this.rounds) return [{ type: 'function_call', callId: `call_${randomUUID()}`, name: 'noop', arguments: '{}', status: 'completed' }];
    return [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }];
  }
}

/**
 * Runs the same SDK agent (instant model, no-op tool) plainly with the SDK's runner and under the
 * module (adapter, run handle, checkpoints in the embedded SQLite store), interleaved, and
 * reports medians per run and per step (one model call or one tool call).
 */
export async function measureOpenAiAgentsOverhead(options: OpenAiAgentsOverheadOptions): Promise<OpenAiAgentsOverheadResult> {
  const noop = tool({
    name: 'noop',
    description: 'does nothing',
    parameters: { type: 'object', properties: {}, additionalProperties: true, required: [] },
    strict: false,
    execute: () => 'ok',
  });
  const agent = new Agent({ name: 'bench', instructions: 'bench', model: new InstantModel(options.iterations), tools: [noop] });
  const runner = new Runner({ tracingDisabled: true });
  const durable = openAiAgent(agent, { runner, maxTurns: options.iterations + 2 });
  const sqlite = await openSqliteStore();
  const samples: number[][] = [[], []];

  const plain = async (): Promise<number> => {
    const started = performance.now();
    const result = await runner.run(agent, 'go', { stream: true, maxTurns: options.iterations + 2 });
    for await (const event of result) void event;
    await result.completed;
    return (performance.now() - started) * 1000;
  };
  const underModule = async (): Promise<number> => {
    const threadId = randomUUID();
    const run = { threadId, runId: 'run-1', runKey: randomUUID() };
    const user = { id: randomUUID(), role: 'user' as const, content: 'go' };
    await sqlite.store.startRun({ ...run, ownerId: 'bench', instanceId: 'bench', messages: [user] });
    const handle = new DurableRunHandle({
      ...run,
      history: [user],
      hooks: [],
      control: new RunControl(),
      checkpointer: new StoreCheckpointer(sqlite.store, run),
      emit: () => undefined,
      toolTraits: (name) => durable.toolTraits(name),
    });
    const started = performance.now();
    const outcome = await driveRun(durable, handle);
    const micros = (performance.now() - started) * 1000;
    if (outcome.stopReason !== StopReason.Completed) throw new Error(`benchmark run ended with ${outcome.stopReason}: ${outcome.error?.message ?? ''}`);
    return micros;
  };

  try {
    for (let i = 0; i < options.warmupRuns + options.runs; i++) {
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      for (const variant of order) {
        const micros = variant === 0 ? await plain() : await underModule();
        if (i >= options.warmupRuns) samples[variant].push(micros);
      }
    }
  } finally {
    await sqlite.close();
  }
  const stepsPerRun = 2 * options.iterations + 1;
  const timings = (values: number[]): OverheadTimings => {
    const sorted = [...values].sort((a, b) => a - b);
    const median = quantile(sorted, 0.5);
    return { medianRunMicros: median, p90RunMicros: quantile(sorted, 0.9), medianStepMicros: median / stepsPerRun };
  };
  return { options, stepsPerRun, plain: timings(samples[0]), withModule: timings(samples[1]) };
}

function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/** The result as a table, with the ratio and the overhead per step. */
export function openAiAgentsOverheadReport(result: OpenAiAgentsOverheadResult): string {
  const { options, stepsPerRun, plain, withModule } = result;
  const row = (name: string, t: OverheadTimings) => [
    name,
    String(options.runs),
    formatMicros(t.medianRunMicros, 1),
    formatMicros(t.p90RunMicros, 1),
    formatMicros(t.medianStepMicros, 1),
  ];
  const table = renderTable(
    [
      { heading: 'variant' },
      { heading: 'runs', align: 'right' },
      { heading: 'median per run', align: 'right' },
      { heading: 'p90 per run', align: 'right' },
      { heading: 'median per step', align: 'right' },
    ],
    [row('SDK runner alone', plain), row('openAiAgent + SQLite store', withModule)],
  );
  const ratio = withModule.medianRunMicros / plain.medianRunMicros;
  const overheadStep = (withModule.medianRunMicros - plain.medianRunMicros) / stepsPerRun;
  return [
    `openai-agents adapter overhead: instant model, no-op tool, ${options.iterations} tool rounds per run = ${stepsPerRun} steps per run;`,
    `    ${options.runs} measured runs per variant, interleaved, after ${options.warmupRuns} warm-up runs each; module checkpoints in SQLite`,
    '',
    table,
    '',
    `ratio with/without (medians): ${ratio.toFixed(2)}x`,
    `overhead: ${formatMicros(overheadStep, 1)} per step (${formatMicros(withModule.medianRunMicros - plain.medianRunMicros, 1)} per run)`,
  ].join('\n');
}
