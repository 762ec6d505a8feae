import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A loopback TCP proxy that can go silent: `silence()` stops carrying bytes on the connections
 * open so far, in both directions, without closing them, as a peer behind a dead network path
 * does (no reset, no FIN). Connections opened afterwards are carried as usual.
 */
export class SilentTcpProxy {
  private readonly carried: Array<[Socket, Socket]> = [];
  private readonly silenced: Socket[] = [];
  private readonly server = createServer((inbound) => {
    const outbound = createConnection({ host: '127.0.0.1', port: this.targetPort });
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    this.carried.push([inbound, outbound]);
  });

  private constructor(private readonly targetPort: number) {}

  /** Starts a proxy to `targetPort` on 127.0.0.1. */
  static async start(targetPort: number): Promise<SilentTcpProxy> {
    const proxy = new SilentTcpProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The port the proxy listens on, on 127.0.0.1. */
  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** Stops carrying bytes on every connection open now; they stay open. */
  silence(): void {
    for (const [inbound, outbound] of this.carried.splice(0)) {
      inbound.unpipe(outbound);
      outbound.unpipe(inbound);
      inbound.pause();
      outbound.pause();
      this.silenced.push(inbound, outbound);
    }
  }

  /** Closes the proxy and every connection it holds. */
  async close(): Promise<void> {
    for (const socket of [...this.silenced, ...this.carried.flat()]) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
