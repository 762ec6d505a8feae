import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Headers a proxy adds: any of them means the request came through one, whatever the TCP peer. */
const FORWARDING_HEADERS = new Set(['forwarded', 'via', 'x-real-ip']);

/** Whether `address` (a socket's remote address) is this machine: 127.0.0.0/8, ::1, or IPv4 127.x mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/**
 * Whether the request carries a header a proxy adds (`Forwarded`, `Via`, `X-Real-IP` or any
 * `X-Forwarded-*`). A reverse proxy on this machine (`proxy_pass http://localhost:…`) connects
 * from loopback and names localhost, so only these headers tell its requests apart.
 */
export function isForwarded(headers: IncomingHttpHeaders): boolean {
  return Object.keys(headers).some(
    (name) =>
      FORWARDING_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith('x-forwarded-'),
  );
}

/**
 * Whether a request comes from this machine, directly (no proxy header), and names it by a
 * loopback host (`Host: localhost:3000`, `127.0.0.1:…`, `[::1]:…`). The host check keeps out a
 * page on another site whose DNS name was rebound to 127.0.0.1: the browser sends that site's
 * name as `Host`.
 */
export function isLoopbackRequest(
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
): boolean {
  const host = headers.host;
  if (!isLoopbackAddress(remoteAddress) || !host || isForwarded(headers)) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return LOOPBACK_NAMES.has(name.toLowerCase());
}
