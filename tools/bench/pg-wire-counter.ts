import pg from 'pg';

/** What went over the wire to PostgreSQL between two readings. */
export interface WireCounts {
  /** Queries sent and answered: one round trip each (`pg` sends a query's messages at once, then waits for its answer). */
  roundTrips: number;
  /** Bytes sent and received on every connection that queried, connection setup included. */
  bytes: number;
}

type Socket = { bytesRead: number; bytesWritten: number };
type CountedClient = pg.Client & { connection?: { stream?: Socket } };

/**
 * Counts what every `pg` client of this process sends to and receives from PostgreSQL: the
 * session store (TypeORM's `pg` driver) and LangGraph's `PostgresSaver` alike, since both
 * query through `pg.Client`. Query calls are counted as they are made; bytes are read from the
 * sockets' own counters, so nothing is copied or parsed on the way. Install once per process.
 *
 * @example
 * const wire = PgWireCounter.install();
 * const before = wire.read();
 * // … work …
 * const { roundTrips, bytes } = wire.since(before);
 */
export class PgWireCounter {
  private static installed?: PgWireCounter;
  private queries = 0;
  /** Every client that queried, kept after its connection ended: its socket still holds its counts. */
  private readonly clients = new Set<CountedClient>();

  private constructor() {}

  /** Wraps `pg.Client.prototype.query` (once, however often called). */
  static install(): PgWireCounter {
    if (PgWireCounter.installed) return PgWireCounter.installed;
    const counter = new PgWireCounter();
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: CountedClient, ...args: unknown[]) {
      counter.queries++;
      counter.clients.add(this);
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
    PgWireCounter.installed = counter;
    return counter;
  }

  /** The totals so far. */
  read(): WireCounts {
    let bytes = 0;
    for (const client of this.clients) {
      const socket = client.connection?.stream;
      if (socket) bytes += socket.bytesRead + socket.bytesWritten;
    }
    return { roundTrips: this.queries, bytes };
  }

  /** What went over the wire since `before` (a reading of this counter). */
  since(before: WireCounts): WireCounts {
    const now = this.read();
    return { roundTrips: now.roundTrips - before.roundTrips, bytes: now.bytes - before.bytes };
  }
}
