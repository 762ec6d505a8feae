import { FakeOpenAiServer, textChunks, toolCallChunks, waitFor } from 'dev-services';
import { api, runInput, tokenFor } from './http';
import { ServiceGroup } from './service-group';
import type { ServiceProcess } from './service-process';
import { startRun, type AgUiEvent, type RunStream } from './sse';
import { toolLedger } from './tool-ledger';

const user = tokenFor('oskar');

type Stored = {
  role: string;
  content: string;
  truncated?: boolean;
  toolCallId?: string;
  toolCalls?: Array<{ id: string }>;
};
type ChatMessage = {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string }>;
  tool_call_id?: string;
};

const messagesOf = async (service: ServiceProcess, threadId: string) =>
  (await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user })).body
    .messages as Stored[];

/** How a framework's agent differs in what the end-to-end suite sees. */
export interface FrameworkAgentSuiteOptions {
  /** The `content` of an assistant text message in the framework's chat-completions request (a string, or content parts). */
  assistantText(text: string): unknown;
}

/**
 * The end-to-end behaviour every `AGENT_FRAMEWORK` must have, against the scripted
 * OpenAI-compatible server and the offline demo model: SIGTERM mid-tool and mid-answer, restart
 * and retry, each tool executed once, one resume message with the history the framework sends,
 * cancel with `waitMs`, an approval pause across a restart.
 */
export function describeFrameworkAgent(
  framework: string,
  name: string,
  options: FrameworkAgentSuiteOptions,
): void {
  describe(`${name} agent on an OpenAI-compatible model, stopped by SIGTERM mid-tool and mid-answer`, () => {
    const services = new ServiceGroup();
    let model: FakeOpenAiServer;
    let first: ServiceProcess;
    let second: ServiceProcess;
    const streams: Record<string, RunStream> = {};
    const retries: Record<string, AgUiEvent | undefined> = {};
    let firstExit: number | null;
    let afterToolResume: { messages: ChatMessage[] };
    let afterAnswerResume: { messages: ChatMessage[] };
    const toolInput = runInput(`${framework}-tool`, 'run-1', [{ id: 'u1', content: 'do step 1' }]);
    const answerInput = runInput(`${framework}-answer`, 'run-1', [
      { id: 'u1', content: 'answer me' },
    ]);

    beforeAll(async () => {
      model = await FakeOpenAiServer.start();
      const env = {
        AGENT_FRAMEWORK: framework,
        MODEL_PROVIDER: 'openai',
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: 'test-key',
        MODEL_NAME: 'm',
        MODEL_MAX_RETRIES: '0',
        SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '10000',
        DEMO_TOOL_MS: '1500',
      };
      model.enqueue(
        {
          kind: 'stream',
          chunks: toolCallChunks([{ id: 'call_a1', name: 'demo_step', arguments: '{"step":1}' }]),
        },
        {
          kind: 'stream',
          chunks: [
            ...textChunks(['The answer ', 'is '], { delayMs: 10 }),
            ...textChunks(['never sent'], { delayMs: 30_000 }),
          ],
        },
      );
      first = await services.start({ env });
      streams.tool = await startRun(first.baseUrl, user, toolInput);
      await waitFor(
        () => toolLedger([first], 'demo tool started').includes('call_a1'),
        'the demo tool to start',
      );
      streams.answer = await startRun(first.baseUrl, user, answerInput);
      await streams.answer.waitForEvent(
        (e) => e.type === 'TEXT_MESSAGE_CONTENT' && e.delta === 'is ',
        'the second delta',
      );

      first.kill('SIGTERM');
      firstExit = (await first.waitForExit()).code;

      second = await services.restart(first);
      model.enqueue({ kind: 'stream', chunks: textChunks(['Step 1 is done.']) });
      retries.tool = await (await startRun(second.baseUrl, user, toolInput)).terminal();

      afterToolResume = model.requests[2].body as { messages: ChatMessage[] };
      model.enqueue({ kind: 'stream', chunks: textChunks(['Resumed.']) });
      retries.answer = await (await startRun(second.baseUrl, user, answerInput)).terminal();
      afterAnswerResume = model.requests[3].body as { messages: ChatMessage[] };
    });
    afterAll(async () => {
      await services.stopAll();
      await model?.close();
    });

    it('ends the stream of a run stopped while a tool runs with RUN_ERROR RUN_INTERRUPTED', async () => {
      expect(await streams.tool.terminal()).toMatchObject({
        type: 'RUN_ERROR',
        code: 'RUN_INTERRUPTED',
      });
    });

    it('ends the stream of a run stopped while the model streams its answer with RUN_ERROR RUN_INTERRUPTED', async () => {
      expect(await streams.answer.terminal()).toMatchObject({
        type: 'RUN_ERROR',
        code: 'RUN_INTERRUPTED',
      });
    });

    it('prints no stack of the stops as failures', () => {
      expect(first.logs).not.toMatch(/RunStoppedError|CallAbortedError|AbortError/);
    });

    it('exits 0 after the SIGTERM', () => {
      expect(firstExit).toBe(0);
    });

    it('finishes both runs when their clients retry the same requests after the restart', () => {
      expect(retries).toEqual({
        tool: expect.objectContaining({ type: 'RUN_FINISHED' }),
        answer: expect.objectContaining({ type: 'RUN_FINISHED' }),
      });
    });

    it('executes the interrupted tool call exactly once across both processes', () => {
      expect(
        toolLedger([first, second], 'demo tool finished').filter((id) => id === 'call_a1'),
      ).toHaveLength(1);
    });

    it('stores exactly one resume message in each thread', async () => {
      for (const threadId of [`${framework}-tool`, `${framework}-answer`]) {
        const system = (await messagesOf(second, threadId)).filter((m) => m.role === 'system');
        expect(system).toEqual([
          expect.objectContaining({ content: expect.stringMatching(/interrupted/) }),
        ]);
      }
    });

    it('sends the model, after the resume, the earlier tool call, its result and the resume message in the chat-completions shape', () => {
      const tail = afterToolResume.messages.slice(-3);
      expect(tail).toMatchObject([
        {
          role: 'assistant',
          tool_calls: [
            {
              id: 'call_a1',
              type: 'function',
              function: { name: 'demo_step', arguments: '{"step":1}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a1', content: 'step 1 done' },
        { role: 'system', content: expect.stringMatching(/interrupted/) },
      ]);
      expect(afterToolResume.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    });

    it('sends the model, after a resume mid-answer, the text streamed before the stop and the resume message', () => {
      expect(afterAnswerResume.messages.slice(-2)).toMatchObject([
        { role: 'assistant', content: options.assistantText('The answer is ') },
        { role: 'system', content: expect.stringMatching(/cut off/) },
      ]);
    });

    it('answers a cancel with waitMs once the run stopped, ending the stream with RUN_ERROR RUN_CANCELED', async () => {
      model.enqueue({
        kind: 'stream',
        chunks: [
          ...textChunks(['Half '], { delayMs: 10 }),
          ...textChunks(['never'], { delayMs: 30_000 }),
        ],
      });
      const stream = await startRun(
        second.baseUrl,
        user,
        runInput(`${framework}-cancel`, 'run-1', [{ id: 'u1', content: 'answer' }]),
      );
      await stream.waitForEvent((e) => e.type === 'TEXT_MESSAGE_CONTENT', 'the first delta');

      const cancel = await api(second.baseUrl, `/v1/runs/${framework}-cancel/cancel?waitMs=5000`, {
        method: 'POST',
        token: user,
      });

      expect([cancel.status, cancel.body]).toEqual([
        200,
        expect.objectContaining({ stopped: true, stopReason: 'canceled' }),
      ]);
      expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    });
  });

  describe(`${name} agent on the offline demo model`, () => {
    const services = new ServiceGroup();
    afterAll(() => services.stopAll());

    it('completes a short run', async () => {
      const service = await services.start({
        env: {
          AGENT_FRAMEWORK: framework,
          DEMO_STEPS: '2',
          DEMO_REASONING_MS: '50',
          DEMO_TOOL_MS: '50',
        },
      });

      const stream = await startRun(
        service.baseUrl,
        user,
        runInput(`${framework}-demo`, 'run-1', [{ id: 'u1', content: 'two steps' }]),
      );

      expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      const stored = await messagesOf(service, `${framework}-demo`);
      expect(stored.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
        'step 1 done',
        'step 2 done',
      ]);
      expect(stored.at(-1)).toMatchObject({
        role: 'assistant',
        content: 'All 2 steps are done for: two steps',
      });
    });

    it('answers the tool call a cancel cut off "not completed" by the time the cancel with waitMs answers', async () => {
      const service = await services.start({
        env: {
          AGENT_FRAMEWORK: framework,
          DEMO_STEPS: '1',
          DEMO_REASONING_MS: '50',
          DEMO_TOOL_MS: '30000',
        },
      });
      const stream = await startRun(
        service.baseUrl,
        user,
        runInput(`${framework}-cut`, 'run-1', [{ id: 'u1', content: 'one step' }]),
      );
      await stream.waitForEvent((e) => e.type === 'TOOL_CALL_END', 'the tool call');
      await waitFor(
        () => toolLedger([service], 'demo tool started').length === 1,
        'the demo tool to start',
      );

      const cancel = await api(service.baseUrl, `/v1/runs/${framework}-cut/cancel?waitMs=5000`, {
        method: 'POST',
        token: user,
      });

      expect(cancel.body).toMatchObject({ stopped: true, stopReason: 'canceled' });
      const stored = await messagesOf(service, `${framework}-cut`);
      const calls = stored.flatMap((m) => m.toolCalls ?? []).map((call) => call.id);
      expect(calls).toHaveLength(1);
      expect(stored.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content])).toEqual(
        calls.map((id) => [id, expect.stringMatching(/^not completed: /)]),
      );
      expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    });

    it('pauses for approval, keeps the pause across a restart, and runs the approved call once', async () => {
      const env = {
        AGENT_FRAMEWORK: framework,
        DEMO_STEPS: '1',
        DEMO_REQUIRE_APPROVAL: 'true',
        DEMO_REASONING_MS: '50',
        DEMO_TOOL_MS: '50',
      };
      const first = await services.start({ env });
      const input = runInput(`${framework}-approval`, 'run-1', [{ id: 'u1', content: 'one step' }]);
      const paused = (await (await startRun(first.baseUrl, user, input)).terminal()) as AgUiEvent;
      expect(paused).toMatchObject({
        type: 'RUN_FINISHED',
        outcome: { type: 'interrupt', interrupts: [{ reason: 'tool_approval' }] },
      });
      first.kill('SIGTERM');
      expect((await first.waitForExit()).code).toBe(0);
      const second = await services.restart(first);
      const interrupt = paused.outcome.interrupts[0] as { id: string; toolCallId: string };

      const resume = [
        { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
      ];
      const resumed = await startRun(second.baseUrl, user, {
        ...runInput(`${framework}-approval`, 'run-2', [{ id: 'u1', content: 'one step' }]),
        resume,
      });

      expect(await resumed.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      expect(toolLedger([first, second], 'demo tool finished')).toEqual([interrupt.toolCallId]);
      expect(
        (await messagesOf(second, `${framework}-approval`))
          .filter((m) => m.role === 'tool')
          .map((m) => m.content),
      ).toEqual(['step 1 done']);
      expect(
        (await api(second.baseUrl, `/v1/threads/${framework}-approval`, { token: user })).body,
      ).toMatchObject({ status: 'idle', interrupt: null });
    });
  });
}
