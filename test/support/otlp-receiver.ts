import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as OTLP/HTTP JSON carries it, with its attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, unknown> }>;
  status?: { code?: number; message?: string };
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };

function plain(value: OtlpValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

/**
 * A collector's OTLP/HTTP JSON trace endpoint (`POST /v1/traces`) on a free loopback port: the
 * service exports to it as it would to a real collector, and the test reads what arrived.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') receiver.take(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** The endpoint to give as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private take(body: string): void {
    const request = JSON.parse(body) as {
      resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }>;
    };
    for (const scope of (request.resourceSpans ?? []).flatMap(
      (resource) => resource.scopeSpans ?? [],
    )) {
      for (const span of scope.spans ?? []) {
        this.spans.push({
          traceId: span.traceId as string,
          spanId: span.spanId as string,
          parentSpanId: (span.parentSpanId as string | undefined) || undefined,
          name: span.name as string,
          attributes: attributesOf(span.attributes as OtlpAttribute[]),
          links: (
            (span.links as Array<{
              traceId: string;
              spanId: string;
              attributes?: OtlpAttribute[];
            }>) ?? []
          ).map((link) => ({
            traceId: link.traceId,
            spanId: link.spanId,
            attributes: attributesOf(link.attributes),
          })),
          status: span.status as ReceivedSpan['status'],
        });
      }
    }
  }
}
