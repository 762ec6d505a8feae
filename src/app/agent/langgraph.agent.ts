import { SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { toolFenceOf, type DurableAgent } from 'nest-agent-graceful-shutdown/store';
import { langGraphAgent, runOf, toolFence } from 'nest-agent-graceful-shutdown/langgraph';
import type { AppConfig } from '../config/app-config';
import type { DemoLedger } from '../demo/demo-ledger';
import { DemoTool } from '../demo/demo-tool';
import { DemoChatModel } from './langgraph/demo-chat-model';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt';

/**
 * The reference agent written with LangGraph.js (AGENT_FRAMEWORK=langgraph): the classic ReAct
 * graph (a model node and a `ToolNode` with the demo tool, looping until an answer calls no
 * tool), on the demo model or, with `MODEL_PROVIDER=openai`, any OpenAI-compatible server
 * through the Chat Completions API (`ChatOpenAI`).
 */
export function langGraphServiceAgent(config: AppConfig, ledger: DemoLedger): DurableAgent {
  const demo = new DemoTool(config.demo.toolMs, ledger, config.demo.requireApproval);
  const demoStep = tool(
    (args: { step: number }, runConfig) => {
      const run = runOf(runConfig);
      const toolCallId = runConfig.toolCall?.id ?? '';
      return demo.execute(args, {
        threadId: run?.threadId ?? '',
        runId: run?.runId ?? '',
        toolCallId,
        ...(toolFence(runConfig) ?? toolFenceOf(run?.threadId ?? '', toolCallId, 0)),
        signal: runConfig.signal ?? new AbortController().signal,
      });
    },
    {
      name: demo.definition.name,
      description: demo.definition.description,
      schema: demo.definition.parameters,
    },
  );
  const openai = config.modelProvider === 'openai' ? config.openai : undefined;
  const model = openai
    ? new ChatOpenAI({
        model: openai.model,
        apiKey: openai.apiKey ?? 'unset',
        maxRetries: openai.maxRetries,
        timeout: openai.timeoutMs,
        ...(openai.temperature !== undefined ? { temperature: openai.temperature } : {}),
        configuration: { baseURL: openai.baseUrl },
      }).bindTools([demoStep])
    : new DemoChatModel({ steps: config.demo.steps, reasoningMs: config.demo.reasoningMs });
  const system = new SystemMessage(config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({
      messages: [await model.invoke([system, ...state.messages])],
    }))
    .addNode('tools', new ToolNode([demoStep]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition)
    .addEdge('tools', 'agent')
    .compile();
  return langGraphAgent(graph, {
    toolTraits: {
      [demo.definition.name]: {
        idempotent: demo.idempotent,
        requiresApproval: demo.requiresApproval,
        expectedDurationMs: demo.expectedDurationMs,
      },
    },
    expectedReasoningMs: openai?.expectedDurationMs ?? config.demo.reasoningMs,
    // Two super-steps per tool round.
    config: { recursionLimit: 2 * (openai ? 25 : config.demo.steps + 5) },
  });
}
