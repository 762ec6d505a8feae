import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { AgentShape } from '../agent/agent-release.js';
import type { CompiledGraph } from './langgraph-types.js';

type LangChainSchema = Parameters<typeof toJsonSchema>[0];

/** LangGraph's own entry node, in every compiled graph. */
const START_NODE = '__start__';

/**
 * What a resume of the graph depends on: its tools with their input schemas as JSON Schema (as
 * LangChain turns a zod or JSON schema into one for a model), its node names and its state
 * channels, each list sorted so the shape is the same in every process.
 */
export function graphShape(
  graph: CompiledGraph,
  tools: readonly StructuredToolInterface[],
): AgentShape {
  return {
    tools: [...tools]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((tool) => ({
        name: tool.name,
        inputSchema: toJsonSchema(tool.schema as LangChainSchema),
      })),
    graph: {
      nodes: Object.keys(graph.nodes)
        .filter((node) => node !== START_NODE)
        .sort(),
      channels: [...graph.streamChannelsList].sort(),
    },
  };
}
