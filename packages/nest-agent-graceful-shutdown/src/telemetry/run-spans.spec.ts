import { trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { RunSpans } from './run-spans.js';

describe('RunSpans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  beforeAll(() => trace.setGlobalTracerProvider(provider));
  afterEach(() => exporter.reset());
  afterAll(async () => {
    trace.disable();
    await provider.shutdown();
  });

  const named = (name: string): ReadableSpan[] =>
    exporter.getFinishedSpans().filter((span) => span.name === name);
  const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  async function oneRound(spans: RunSpans): Promise<void> {
    spans.stepStarted('reasoning', 1);
    spans.modelUsage({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
    spans.modelAnswered(1);
    spans.stepEnded('reasoning');
    spans.stepStarted('acting', 1);
    await spans.tool({ id: 'call-1', name: 'lookup', arguments: '{}' }, async () => 'found');
    spans.stepEnded('acting');
  }

  it('nests the steps under the run, the model call under its reasoning step and the tool call under its acting step', async () => {
    const spans = new RunSpans();
    spans.start({ agentName: 'helper', attributes: { 'agent.run.id': 'r1' } });
    await oneRound(spans);
    spans.end({ 'agent.run.outcome': 'completed' });

    const [run] = named('invoke_agent helper');
    const [reasoning] = named('reasoning');
    const [acting] = named('acting');
    const [chat] = named('chat');
    const [tool] = named('execute_tool lookup');
    expect(run.attributes).toMatchObject({
      'agent.run.id': 'r1',
      'agent.run.outcome': 'completed',
    });
    expect([parentId(reasoning), parentId(acting)]).toEqual([
      run.spanContext().spanId,
      run.spanContext().spanId,
    ]);
    expect(parentId(chat)).toBe(reasoning.spanContext().spanId);
    expect(chat.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(parentId(tool)).toBe(acting.spanContext().spanId);
    expect(tool.attributes).toMatchObject({
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'call-1',
    });
  });

  it('links a resumed attempt to the interrupted one it continues, in a trace of its own', () => {
    const interrupted = new RunSpans();
    interrupted.start({ agentName: 'helper', attributes: {} });
    interrupted.stepStarted('acting', 2);
    interrupted.stopOpenSpans('interrupted');
    const saved = interrupted.saved();
    interrupted.end({ 'agent.run.outcome': 'interrupted' });

    const resumed = new RunSpans();
    resumed.start({ agentName: 'helper', attributes: {}, resumes: saved });
    resumed.end({ 'agent.run.outcome': 'completed' });

    const [first, second] = named('invoke_agent helper');
    expect(saved).toEqual({
      traceId: first.spanContext().traceId,
      spanId: first.spanContext().spanId,
    });
    expect(second.spanContext().traceId).not.toBe(first.spanContext().traceId);
    expect(second.links).toEqual([
      expect.objectContaining({
        context: expect.objectContaining(saved),
        attributes: { 'agent.link.reason': 'resume' },
      }),
    ]);
    expect(named('acting')[0].attributes).toMatchObject({ 'agent.run.stop_reason': 'interrupted' });
  });

  it('marks a failed tool call and a failed run with the error status', async () => {
    const spans = new RunSpans();
    spans.start({ agentName: 'helper', attributes: {} });
    spans.stepStarted('acting', 1);
    await expect(
      spans.tool({ id: 'c', name: 'broken', arguments: '{}' }, () =>
        Promise.reject(new Error('no route')),
      ),
    ).rejects.toThrow('no route');
    spans.stopOpenSpans('failed');
    spans.end({}, new Error('the run failed'));

    expect(named('execute_tool broken')[0].status).toMatchObject({ code: 2, message: 'no route' });
    expect(named('invoke_agent helper')[0].status).toMatchObject({
      code: 2,
      message: 'the run failed',
    });
  });
});
