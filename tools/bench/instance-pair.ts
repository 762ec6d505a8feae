import { performance } from 'node:perf_hooks';
import type { PostgresServer, RedisServer } from 'dev-services';
import { SpawnedService } from './spawned-service';

/** The fields of one of the survivor's JSON log lines (`msg`, `threadId`, …) and when it was printed (`performance.now()` in this process). */
export interface TimedLogLine {
  atMs: number;
  fields: Record<string, unknown>;
}

/** The structured fields of a log line: one flat JSON object. */
function fieldsOf(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Two instances of the built service on one PostgreSQL database and one Redis: `holder` gets
 * the runs and the signal, `survivor` stays up and may continue them (or, started without
 * one, the holder alone on the shared stores). `dispose()` on every path.
 */
export class InstancePair {
  private constructor(
    readonly holder: SpawnedService,
    private readonly second: SpawnedService | undefined,
    /** The survivor's JSON log lines so far, in order. */
    readonly survivorLog: TimedLogLine[],
    /** The database both use. */
    readonly databaseUrl: string,
  ) {}

  /**
   * Creates the database `database` on `postgres`, then starts both instances (only the holder
   * with `withSurvivor` false) with `env` plus `DATABASE_URL` and `REDIS_URL`; each waits until it is ready.
   */
  static async start(
    postgres: PostgresServer,
    redis: RedisServer,
    database: string,
    env: Record<string, string>,
    withSurvivor = true,
  ): Promise<InstancePair> {
    const databaseUrl = await postgres.createDatabase(database);
    const shared = { ...env, DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
    const survivorLog: TimedLogLine[] = [];
    const keep = (text: string) => {
      const fields = fieldsOf(text);
      if (fields) survivorLog.push({ atMs: performance.now(), fields });
    };
    // One after the other: both migrate at boot, and a failed start must not leave the other running.
    const holder = await SpawnedService.start(shared);
    try {
      const survivor = withSurvivor
        ? await SpawnedService.start(shared, undefined, keep)
        : undefined;
      return new InstancePair(holder, survivor, survivorLog, databaseUrl);
    } catch (error) {
      await holder.dispose();
      throw error;
    }
  }

  /** The instance that stays up; throws for a pair started without one. */
  get survivor(): SpawnedService {
    if (!this.second) throw new Error('this pair was started without a survivor');
    return this.second;
  }

  /** The survivor's log lines whose `msg` is `msg`. */
  survivorLines(msg: string): TimedLogLine[] {
    return this.survivorLog.filter(({ fields }) => fields.msg === msg);
  }

  /** Stops both processes (SIGKILL if still running) and removes their data directories. */
  async dispose(): Promise<void> {
    await Promise.all([this.holder.dispose(), this.second?.dispose()]);
  }
}
