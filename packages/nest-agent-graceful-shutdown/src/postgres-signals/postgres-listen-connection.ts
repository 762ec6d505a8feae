import type { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';

/** The part of a node-postgres `Client` this connection uses. */
interface ListenClient extends EventEmitter {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

/** What the connection tells its owner. */
export interface ListenConnectionEvents {
  /** A notification on one of the channels. */
  notification(channel: string, payload: string): void;
  /** The channels are listened to (first time, or again after a loss). */
  up(): void;
  /** The connection was lost, or an attempt failed; another follows after a backoff. */
  down(error: Error): void;
}

/** Reconnect pauses: 100 ms doubling to 5 s, each jittered down to half, as ioredis does by default. */
export interface ReconnectBackoff {
  /** The pause before the first attempt after a loss, in milliseconds; it doubles with each failed attempt. */
  initialDelayMs: number;
  /** The longest pause between attempts, in milliseconds. */
  maxDelayMs: number;
}

const DEFAULT_BACKOFF: ReconnectBackoff = { initialDelayMs: 100, maxDelayMs: 5_000 };
/** How often an idle listening connection proves it is alive, in milliseconds. */
const PING_EVERY_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long `LISTEN` or a ping may go unanswered before the connection counts as lost: a peer
 * gone silent (no reset, no FIN) would otherwise hold it until TCP gives up, many minutes later.
 */
const QUERY_TIMEOUT_MS = 5_000;

/**
 * One dedicated PostgreSQL connection that `LISTEN`s on a few channels: not from the pool, since
 * a pooled connection is handed to others and its notifications would be lost. Opened from the
 * data source's own connection settings (URL, TLS, credentials), named `agent-signal-listener`
 * in `pg_stat_activity`. A lost connection is replaced after a backoff and listens again.
 */
export class PostgresListenConnection {
  private client?: ListenClient;
  private attempt = 0;
  private retry?: NodeJS.Timeout;
  private ping?: NodeJS.Timeout;
  private closed = false;
  /** True while the channels are listened to. */
  listening = false;

  constructor(
    private readonly dataSource: () => DataSource,
    private readonly channels: readonly string[],
    private readonly events: ListenConnectionEvents,
    private readonly backoff: ReconnectBackoff = DEFAULT_BACKOFF,
  ) {}

  /** Opens the connection; failures are retried with backoff until `close()`. */
  start(): void {
    if (!this.closed && !this.client && !this.retry) this.open();
  }

  /** Ends the connection and every retry. Safe to call more than once. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    await client?.end().catch(() => undefined);
  }

  private open(): void {
    this.retry = undefined;
    if (this.closed) return;
    let client: ListenClient;
    try {
      client = newClient(this.dataSource());
    } catch (error) {
      return this.lost(undefined, asError(error));
    }
    this.client = client;
    client.on('error', (error: Error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (message: { channel: string; payload?: string }) =>
      this.events.notification(message.channel, message.payload ?? ''),
    );
    // Channel names are checked when the bus is made: lower-case letters, digits and `_` only.
    const listen = this.channels.map((channel) => `LISTEN "${channel}"`).join('; ');
    client
      .connect()
      .then(() => client.query(listen))
      .then(
        () => {
          if (this.client !== client) return;
          this.attempt = 0;
          this.listening = true;
          this.ping = setInterval(
            () =>
              void client
                .query('SELECT 1')
                .catch((error: unknown) => this.lost(client, asError(error))),
            PING_EVERY_MS,
          ).unref();
          this.events.up();
        },
        (error: unknown) => this.lost(client, asError(error)),
      );
  }

  /** Drops `client` (once) and schedules the next attempt. */
  private lost(client: ListenClient | undefined, error: Error): void {
    if (client && this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    clearInterval(this.ping);
    client?.removeAllListeners('notification');
    // A dead client's 'error' after this is harmless, but must have a listener.
    client?.on('error', () => undefined);
    void client?.end().catch(() => undefined);
    if (this.closed) return;
    this.events.down(error);
    const ceiling = Math.min(
      this.backoff.maxDelayMs,
      this.backoff.initialDelayMs * 2 ** this.attempt++,
    );
    this.retry = setTimeout(() => this.open(), ceiling / 2 + Math.random() * (ceiling / 2)).unref();
  }
}

/** A node-postgres client with the settings of the data source's pool, from the driver TypeORM loaded. */
function newClient(dataSource: DataSource): ListenClient {
  const driver = dataSource.driver as unknown as {
    postgres?: { Client: new (config: object) => ListenClient };
    master?: { options?: object };
  };
  if (!driver.postgres?.Client || !driver.master?.options)
    throw new Error('the data source is not an initialized PostgreSQL data source');
  const settings = driver.master.options as { connectionTimeoutMillis?: number };
  return new driver.postgres.Client({
    ...settings,
    connectionTimeoutMillis: settings.connectionTimeoutMillis || CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'agent-signal-listener',
  });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
