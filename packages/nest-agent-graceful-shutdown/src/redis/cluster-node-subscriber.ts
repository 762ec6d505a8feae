import { EventEmitter } from 'node:events';
import { Redis, type Cluster, type RedisOptions } from 'ioredis';
import { SIGNAL_REDIS_OPTIONS } from './redis-connection.js';

/** How long a lost node connection is retried before another node is tried, in milliseconds. */
const NODE_RETRY_MS = 200;
/** Reconnect attempts to the same node before moving on to another. */
const NODE_ATTEMPTS = 2;

/**
 * The signal bus's subscriber connection on a Redis Cluster: one standalone connection to any
 * one node, since a cluster broadcasts classic pub/sub to every node. When that node goes
 * (a failover, a restart), it moves to another node the cluster client knows. It emits what a
 * standalone subscriber emits (`ready`, `close`, `message`, `error`), so each move is seen as
 * a reconnect: the bus subscribes again and re-syncs what it could have missed. ioredis'
 * own cluster subscriber moves silently, which would lose the messages sent meanwhile.
 */
export class ClusterNodeSubscriber extends EventEmitter {
  private current?: Redis;
  private turn = 0;
  private closed = false;
  private retry?: NodeJS.Timeout;
  /** Set while it waits for the cluster client's first 'ready', which brings the nodes. */
  private awaitingNodes = false;

  /**
   * @param cluster the bus's command client, whose nodes it picks from (once it is ready).
   * @param overrides connection settings, e.g. `autoResubscribe: false`.
   */
  constructor(
    private readonly cluster: Cluster,
    private readonly overrides: RedisOptions = {},
  ) {
    super();
  }

  /** The current node connection's status; `wait` before the first one. */
  get status(): string {
    return this.current?.status ?? 'wait';
  }

  /** Opens a connection to a node, once the cluster client knows its nodes. */
  async connect(): Promise<void> {
    if (this.closed || this.current || this.retry || this.awaitingNodes) return;
    this.open();
  }

  /** Subscribes on the current node connection. */
  subscribe(...channels: string[]): Promise<unknown> {
    if (!this.current) return Promise.reject(new Error('no cluster node connection yet'));
    return this.current.subscribe(...channels);
  }

  /** With `reconnect`, drops the connection for a fresh one; without, closes for good. */
  disconnect(reconnect = false): void {
    if (!reconnect) this.closed = true;
    clearTimeout(this.retry);
    this.current?.disconnect(reconnect);
  }

  /** Closes for good, politely. */
  async quit(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.current?.quit();
  }

  private open(): void {
    this.retry = undefined;
    if (this.closed) return;
    const nodes = this.cluster.nodes('all');
    if (nodes.length === 0) {
      // Not ready yet: its first 'ready' brings the nodes.
      this.awaitingNodes = true;
      this.cluster.once('ready', () => {
        this.awaitingNodes = false;
        this.open();
      });
      return;
    }
    const { host, port, username, password, tls } = nodes[this.turn++ % nodes.length].options;
    const connection = new Redis({
      ...SIGNAL_REDIS_OPTIONS,
      ...this.overrides,
      ...{ host, port, username, password, tls },
      retryStrategy: (times) => (times >= NODE_ATTEMPTS ? null : NODE_RETRY_MS),
    });
    this.current = connection;
    for (const event of ['ready', 'close', 'error'])
      connection.on(event, (...args: unknown[]) => this.emit(event, ...args));
    connection.on('message', (channel: string, payload: string) =>
      this.emit('message', channel, payload),
    );
    connection.once('end', () => {
      if (this.current !== connection || this.closed) return;
      this.current = undefined;
      this.retry = setTimeout(() => this.open(), NODE_RETRY_MS);
      this.retry.unref();
    });
    connection.connect().catch(() => undefined);
  }
}
