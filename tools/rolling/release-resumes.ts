import { Client } from 'pg';
import type { ClusterInstance } from './rolling-cluster';

/** What the store says of a rolling upgrade's runs, by the release of the instance that ran each. */
export interface ReleaseResumes {
  /** Runs each instance started, by instance name, in the order the instances started. */
  runsByInstance: Record<string, number>;
  /** Runs an instance of the old release stopped with status `interrupted`. */
  interruptedByOld: number;
  /** Of those, runs whose thread's next run (the client's retry, which resumed it) ran on an instance of the new release. */
  resumedByNew: number;
  /** Of those, runs resumed by another instance of the old release (it still served then). */
  resumedByOld: number;
  /** Runs still recorded as `running` at the end: stuck. Must be empty. */
  runsStuck: string[];
  /** Runs recorded under an instance id of no instance this cluster started: the counts above would be wrong. Must be 0. */
  runsOfUnknownInstances: number;
}

/** How long the query may take, in ms. */
const QUERY_TIMEOUT_MS = 30_000;

interface RunRow {
  thread_id: string;
  run_id: string;
  status: string;
  instance_id: string;
}

/**
 * Reads every run of the threads whose id starts with `threadPrefix` straight from PostgreSQL
 * and attributes each to the instance that ran it: an instance records its runs under its
 * default instance id, `<hostname>-<pid>`, in both releases. A thread's runs in the order they
 * started tell which instance interrupted a run and which one resumed it: with the client's
 * retry, the run after an interrupted one is its resumption.
 */
export async function readReleaseResumes(
  databaseUrl: string,
  threadPrefix: string,
  instances: readonly ClusterInstance[],
  oldRelease: string,
): Promise<ReleaseResumes> {
  const byPid = new Map(instances.map((instance) => [String(instance.service.pid), instance]));
  const instanceOf = (instanceId: string) =>
    byPid.get(instanceId.slice(instanceId.lastIndexOf('-') + 1));
  const client = new Client({
    connectionString: databaseUrl,
    statement_timeout: QUERY_TIMEOUT_MS,
    connectionTimeoutMillis: QUERY_TIMEOUT_MS,
  });
  await client.connect();
  let rows: RunRow[];
  try {
    // started_at is an ISO timestamp: its text order is its time order.
    const result = await client.query<RunRow>(
      'SELECT thread_id, run_id, status, instance_id FROM agent_runs WHERE thread_id LIKE $1 ORDER BY thread_id, started_at, run_key',
      [`${threadPrefix}-%`],
    );
    rows = result.rows;
  } finally {
    await client.end();
  }
  const resumes: ReleaseResumes = {
    runsByInstance: Object.fromEntries(instances.map((instance) => [instance.name, 0])),
    interruptedByOld: 0,
    resumedByNew: 0,
    resumedByOld: 0,
    runsStuck: [],
    runsOfUnknownInstances: 0,
  };
  rows.forEach((row, i) => {
    const instance = instanceOf(row.instance_id);
    if (!instance) resumes.runsOfUnknownInstances++;
    else resumes.runsByInstance[instance.name]++;
    if (row.status === 'running')
      resumes.runsStuck.push(
        `${row.thread_id}/${row.run_id} on ${instance?.name ?? row.instance_id}`,
      );
    if (row.status !== 'interrupted' || instance?.build.release !== oldRelease) return;
    resumes.interruptedByOld++;
    const next =
      rows[i + 1]?.thread_id === row.thread_id ? instanceOf(rows[i + 1].instance_id) : undefined;
    if (next && next.build.release !== oldRelease) resumes.resumedByNew++;
    else if (next) resumes.resumedByOld++;
  });
  return resumes;
}
