import type { AgentDefinition, AgentMessage } from 'nest-agent-graceful-shutdown';
import type { RunEventSink, StepCheckpointer } from 'nest-agent-graceful-shutdown/store';

const NOOP_TOOL = 'noop';

/**
 * An agent whose model answers at once: one call of a no-op tool per iteration for
 * `iterations` rounds, then a final text answer. Everything that would take time in a real
 * run (model latency, tool work, storage) is gone, so what is left is the loop and its hooks.
 *
 * The model reads its position from the history length (one user message, then an assistant
 * message and a tool result per round) so its own cost stays constant across the run.
 */
export function noopAgent(iterations: number): AgentDefinition {
  const callIds = Array.from({ length: iterations }, (_, i) => `call-${i}`);
  return {
    model: {
      name: 'noop',
      generate: async ({ messages }) => {
        const round = (messages.length - 1) / 2;
        if (round >= iterations) return { content: 'done', toolCalls: [] };
        return {
          content: '',
          toolCalls: [{ id: callIds[round], name: NOOP_TOOL, arguments: '{}' }],
        };
      },
    },
    tools: [
      {
        definition: {
          name: NOOP_TOOL,
          description: 'does nothing',
          parameters: { type: 'object' },
        },
        execute: async () => 'ok',
      },
    ],
    maxIterations: iterations + 1,
  };
}

/** Hook points the runtime fires in one run of `noopAgent(iterations)`, whether or not a hook listens. */
export function hookEventsPerRun(iterations: number): number {
  const reasoningRounds = iterations + 1;
  const toolCalls = iterations;
  // onRunStart + pre/postReasoning per round + pre/postActing per call + onRunEnd
  return 1 + 2 * reasoningRounds + 2 * toolCalls + 1;
}

/** The one user message every benchmark run starts from. */
export const NOOP_HISTORY: readonly AgentMessage[] = [
  { id: 'user-1', role: 'user', content: 'go' },
];

/** Keeps nothing: storage cost is not what is measured. */
export const noopCheckpointer: StepCheckpointer = { append: async () => undefined };

/** Sends nothing: streaming cost is not what is measured. */
export const noopEmit: RunEventSink = () => undefined;
