import { isIP } from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether `address` (a socket's remote address) is this machine: 127.0.0.0/8, ::1, or IPv4 127.x mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/**
 * Whether a request both comes from this machine and names it by a loopback host (`Host:
 * localhost:3000`, `127.0.0.1:…`, `[::1]:…`). The second check keeps out a page on another
 * site whose DNS name was rebound to 127.0.0.1: the browser sends that site's name as `Host`.
 */
export function isLoopbackRequest(remoteAddress: string | undefined, host: string | undefined): boolean {
  if (!isLoopbackAddress(remoteAddress) || !host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return LOOPBACK_NAMES.has(name.toLowerCase());
}
