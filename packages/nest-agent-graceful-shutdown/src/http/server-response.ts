import type { ServerResponse } from 'node:http';

/** Fastify's reply, as far as streaming needs it (no import of fastify). */
interface RawReply {
  raw: ServerResponse;
  hijack?(): unknown;
}

/** What `AgentRun.streamTo` writes to: Express's `Response`, Fastify's `FastifyReply`, or a plain Node response. */
export type HttpResponseTarget = ServerResponse | RawReply;

/**
 * The Node response under the platform's. A Fastify reply is hijacked first, so Fastify
 * neither sends nor serializes anything once the stream is written by hand.
 */
export function toServerResponse(target: HttpResponseTarget): ServerResponse {
  if ('raw' in target && target.raw && typeof (target as RawReply).raw.write === 'function') {
    (target as RawReply).hijack?.();
    return (target as RawReply).raw;
  }
  return target as ServerResponse;
}
