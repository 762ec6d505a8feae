import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: the kernel picks it for a throwaway
 * listener, which is closed before this resolves. Another process may take it before the
 * caller binds it, so callers that bind it themselves retry on "address in use".
 */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}
