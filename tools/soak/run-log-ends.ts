import { Client } from 'pg';
import { joinStream } from './stream-join';

/** What reading every run's whole log found. */
export interface RunLogEnds {
  /** Runs (thread and run id) the store recorded. */
  runs: number;
  /** Logs read from their first event to their end. */
  read: number;
  /** Logs that could not be read, or whose ids are not 1…n, or whose last event is not `RUN_FINISHED` / `RUN_ERROR`. Must be empty. */
  unfinished: string[];
}

/** How long reading one log may take, in ms. */
const READ_TIMEOUT_MS = 30_000;
/** Logs read at once. */
const READS_AT_ONCE = 4;

/**
 * Reads every run of the threads whose id starts with `threadPrefix` (from the store's
 * `agent_runs`), each through the service as a client would (a join from `Last-Event-ID: 0`),
 * and checks that each log is whole and ends with its terminal event. `tokenOf` names the
 * token of a thread's owner.
 */
export async function auditRunLogEnds(
  baseUrl: string,
  databaseUrl: string,
  threadPrefix: string,
  tokenOf: (threadId: string) => string,
): Promise<RunLogEnds> {
  const db = new Client({
    connectionString: databaseUrl,
    statement_timeout: READ_TIMEOUT_MS,
    connectionTimeoutMillis: READ_TIMEOUT_MS,
  });
  await db.connect();
  let runs: { thread_id: string; run_id: string }[];
  try {
    runs = (
      await db.query<{ thread_id: string; run_id: string }>(
        'SELECT DISTINCT thread_id, run_id FROM agent_runs WHERE thread_id LIKE $1 ORDER BY thread_id, run_id',
        [`${threadPrefix}-%`],
      )
    ).rows;
  } finally {
    await db.end();
  }
  const result: RunLogEnds = { runs: runs.length, read: 0, unfinished: [] };
  const queue = [...runs];
  const reader = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const target = { threadId: next.thread_id, runId: next.run_id, lastEventId: 0 };
      const join = await joinStream(baseUrl, target, tokenOf(next.thread_id), READ_TIMEOUT_MS);
      result.read++;
      if (join.status !== 200 || join.ending !== 'terminal' || !join.idsInOrder) {
        result.unfinished.push(
          `${next.thread_id}/${next.run_id}: HTTP ${join.status}, ${join.events} events, ${join.idsInOrder ? 'ids 1…n' : 'ids out of order'}, ended ${join.ending}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: READS_AT_ONCE }, reader));
  return result;
}
