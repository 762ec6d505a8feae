import { Agent } from 'node:http';
import { resolve } from 'node:path';
import { ChildService, freePort } from 'dev-services';
import { sendRequest } from './body-request';

// Built beside this file in dist-tools.
const CHILD = resolve(__dirname, 'body-peer-child.js');

/**
 * The peer of request-cost section (m): a minimal Nest application with Nest's defaults (its
 * JSON body parsed by Express middleware before the guards run) in its own process, checking
 * bearer tokens made with `secret`. `dispose()` must be called on every path.
 */
export class BodyPeer {
  private constructor(
    private readonly child: ChildService,
    private readonly agent: Agent,
  ) {}

  /** Starts the peer and waits until it answers an authenticated `GET /v1/threads`. */
  static async start(secret: string, token: string): Promise<BodyPeer> {
    const agent = new Agent({ keepAlive: false });
    const port = await freePort();
    const child = await ChildService.start({
      main: CHILD,
      port,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        AUTH_JWT_SECRET: secret,
        NODE_ENV: 'production',
      },
      logLimit: 16_000,
      ready: async (peer) =>
        (
          await sendRequest(
            peer.baseUrl,
            { method: 'GET', path: '/v1/threads', headers: { authorization: `Bearer ${token}` } },
            agent,
          )
        ).status === 200,
    });
    return new BodyPeer(child, agent);
  }

  get baseUrl(): string {
    return this.child.baseUrl;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Kills the process and closes client sockets. */
  async dispose(): Promise<void> {
    await this.child.kill();
    this.agent.destroy();
  }
}
