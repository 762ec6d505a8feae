/**
 * Span attribute names. The `gen_ai.*` ones follow OpenTelemetry's GenAI semantic conventions
 * (agent, chat and tool spans); the `agent.*` ones are this module's own.
 */
export const TraceAttr = {
  operation: 'gen_ai.operation.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  threadId: 'agent.thread.id',
  runId: 'agent.run.id',
  instanceId: 'agent.instance.id',
  resumed: 'agent.run.resumed',
  resumeMode: 'agent.run.resume_mode',
  outcome: 'agent.run.outcome',
  stopReason: 'agent.run.stop_reason',
  phase: 'agent.run.phase',
  iteration: 'agent.run.iteration',
  step: 'agent.step.name',
  linkReason: 'agent.link.reason',
} as const;

/** The tracer's name: the package's, as instrumentation scopes are named. */
export const TRACER_NAME = 'nest-agent-graceful-shutdown';

export type { SavedTraceContext } from '../contracts/interrupted-state.js';
