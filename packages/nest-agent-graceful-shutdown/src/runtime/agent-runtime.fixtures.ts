import type { ToolCall } from '../agent/agent-message.js';
import type { AgentModel, ModelRequest, ModelResponse } from '../agent/agent-model.interface.js';

/** One scripted model answer, or a function that produces it (to hold or fail a call). */
export type Step = ModelResponse | (() => Promise<ModelResponse>);

export const call = (id: string, name = 'echo', args = '{}'): ToolCall => ({
  id,
  name,
  arguments: args,
});
export const ask = (...toolCalls: ToolCall[]): ModelResponse => ({ content: '', toolCalls });
export const answer = (content: string): ModelResponse => ({ content, toolCalls: [] });

/** Plays its steps in order and repeats the last one; keeps a copy of every request. */
export function scriptedModel(...steps: Step[]): { model: AgentModel; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  const model: AgentModel = {
    name: 'scripted',
    async generate(request) {
      requests.push({ ...request, messages: [...request.messages] });
      const step = steps[Math.min(requests.length - 1, steps.length - 1)];
      return typeof step === 'function' ? step() : step;
    },
  };
  return { model, requests };
}
