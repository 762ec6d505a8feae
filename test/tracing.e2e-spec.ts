import { runInput, tokenFor } from './support/http';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver';
import { ServiceGroup } from './support/service-group';
import { startRun } from './support/sse';
import { waitFor } from 'dev-services';

const user = tokenFor('tomas');

/** The spans of one trace, and the parent of each by name. */
function traceOf(spans: ReceivedSpan[], run: ReceivedSpan) {
  const inTrace = spans.filter((span) => span.traceId === run.traceId);
  const byId = new Map(inTrace.map((span) => [span.spanId, span]));
  return {
    spans: inTrace,
    parentOf: (span: ReceivedSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined),
  };
}

describe('traces (OTLP export)', () => {
  const services = new ServiceGroup();
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
  });
  afterAll(async () => {
    await services.stopAll();
    await receiver.close();
  });

  it('exports a run interrupted by SIGTERM and its resume as two linked traces of steps, model calls and tool calls', async () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
      DEMO_TOOL_MS: '300',
    };
    const first = await services.start({ env });
    const input = runInput('traced', 'run-1', [{ id: 'u1', content: 'go' }]);
    const stream = await startRun(first.baseUrl, user, input);
    await stream.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a tool result');
    first.kill('SIGTERM');
    expect((await first.waitForExit(15_000)).code).toBe(0);

    const second = await services.restart(first);
    expect(await (await startRun(second.baseUrl, user, input)).terminal()).toMatchObject({
      type: 'RUN_FINISHED',
    });
    second.kill('SIGTERM');
    expect((await second.waitForExit(15_000)).code).toBe(0);

    const runs = await waitFor(() => {
      const found = receiver.spans.filter(
        (span) =>
          span.name === 'invoke_agent reference-agent' &&
          span.attributes['agent.thread.id'] === 'traced',
      );
      return found.length === 2 ? found : undefined;
    }, 'both run spans to be exported');
    const [interrupted, resumed] = runs.sort(
      (a, b) =>
        Number(a.attributes['agent.run.resumed']) - Number(b.attributes['agent.run.resumed']),
    );
    expect(interrupted.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'reference-agent',
      'gen_ai.conversation.id': 'traced',
      'agent.run.id': 'run-1',
      'agent.run.outcome': 'interrupted',
      'agent.run.stop_reason': 'interrupted',
      'agent.run.phase': expect.stringMatching(/^(reasoning|acting)$/),
    });
    expect(resumed.attributes).toMatchObject({
      'agent.run.id': 'run-1',
      'agent.run.resumed': true,
      'agent.run.resume_mode': 'client',
      'agent.run.outcome': 'completed',
    });
    expect(resumed.traceId).not.toBe(interrupted.traceId);
    expect(resumed.links).toEqual([
      {
        traceId: interrupted.traceId,
        spanId: interrupted.spanId,
        attributes: { 'agent.link.reason': 'resume' },
      },
    ]);

    const { spans, parentOf } = traceOf(receiver.spans, resumed);
    const named = (name: string) => spans.filter((span) => span.name === name);
    expect(named('reasoning').length).toBeGreaterThan(0);
    for (const step of [...named('reasoning'), ...named('acting')])
      expect(parentOf(step)).toBe(resumed);
    for (const chat of named('chat')) {
      expect(parentOf(chat)?.name).toBe('reasoning');
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.response.finish_reasons': [expect.stringMatching(/^(stop|tool_calls)$/)],
      });
    }
    const tools = named('execute_tool demo_step');
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(parentOf(tool)?.name).toBe('acting');
      expect(tool.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'demo_step',
        'gen_ai.tool.call.id': expect.any(String),
      });
    }
    const stoppedSteps = traceOf(receiver.spans, interrupted).spans.filter(
      (span) => span.attributes['agent.run.stop_reason'] === 'interrupted',
    );
    expect(stoppedSteps.length).toBeGreaterThan(1);
  });
});
