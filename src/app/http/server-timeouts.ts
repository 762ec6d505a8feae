import type { Server } from 'node:http';
import type { HttpServerTimeouts } from '../config/app-config';

/**
 * How often Node checks unfinished requests against `headersTimeout` and `requestTimeout`, in
 * milliseconds. Node's default is 30 s, which would let a trickled request outlive its deadline
 * by as much again; the check only walks connections whose request is still arriving.
 */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * Sets the HTTP server's timeouts (call before `listen`): a client must send its headers within
 * `headersTimeoutMs` and its whole request, body included, within `requestTimeoutMs`, else Node
 * answers 408 and closes the connection. Both apply to receiving the request only: a run's event
 * stream, a response, may last as long as the run. An idle keep-alive connection closes after
 * `keepAliveTimeoutMs`.
 */
export function applyServerTimeouts(server: Server, timeouts: HttpServerTimeouts): void {
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  // Read by Node when the server starts listening, so a value set before `listen` takes effect.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    Math.min(TIMEOUT_CHECK_INTERVAL_MS, timeouts.headersTimeoutMs);
}
