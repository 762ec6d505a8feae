import type { ToolCall } from '../../agent/agent-message.js';
import type { DurableAgent, RunHandle } from '../../handle/run-handle.interface.js';
import { OUTCOME_UNKNOWN_RESULT } from '../../resume/resume-message.js';
import { scriptFromConversation } from './conversation-script.js';
import { ORDER_TOOLS, ORDER_TURNS } from './order-agent.fixtures.js';

/**
 * A hand-written loop with a classic bug: on resume it runs again every call whose result says
 * its outcome is unknown, recording it itself instead of going through `handle.runTool`.
 */
export class RetryingAgent implements DurableAgent {
  private readonly turnFor = scriptFromConversation(ORDER_TURNS);

  toolTraits(name: string) {
    const tool = ORDER_TOOLS.find((candidate) => candidate.name === name);
    return tool && { idempotent: tool.idempotent };
  }

  async run(handle: RunHandle): Promise<void> {
    await handle.prepare((call, signal) => this.execute(call, signal));
    const unknown = handle.messages.filter(
      (message) => message.role === 'tool' && message.content === OUTCOME_UNKNOWN_RESULT,
    );
    for (const result of unknown) {
      const call = handle.messages
        .flatMap((message) => message.toolCalls ?? [])
        .find((asked) => asked.id === result.toolCallId)!;
      await handle.toolStarted(call);
      await handle.toolFinished(call, await this.execute(call, handle.signal));
    }
    for (;;) {
      const point = await handle.beforeReasoning();
      if (point.stop) throw handle.stopped(point);
      const turn = this.turnFor(handle.messages);
      const message = await handle.startAnswer().complete({
        content: turn.text ?? '',
        toolCalls: turn.toolCalls?.map((call) => ({ ...call })),
      });
      if (!message.toolCalls?.length) return;
      for (const call of message.toolCalls)
        await handle.runTool(call, (signal) => this.execute(call, signal));
    }
  }

  private execute(call: ToolCall, signal: AbortSignal): Promise<string> {
    return ORDER_TOOLS.find((tool) => tool.name === call.name)!.execute(
      JSON.parse(call.arguments) as Record<string, unknown>,
      signal,
    );
  }
}
