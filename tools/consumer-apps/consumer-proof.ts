import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConsumerApp, ConsumerMode } from './consumer-app-matrix';
import { ConsumerProcess } from './consumer-process';
import { check, same } from './proof-checks';
import { ledgerFile } from './module-ledger-run';
import { readModuleLedger, type ModuleLoad } from './module-instances';
import { getRunEvents, postRunEvents, runInput, type RunEvents } from '../bench/run-events';

const USER = { 'x-user': 'alice' };
/** How the library answers a call that may have started when its run stopped (it is not run again). */
const UNKNOWN_OUTCOME = 'interrupted, outcome unknown';
const HOOKS_AFTER_DRAIN = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'];

/** A short name of a mode, e.g. `esm on fastify with the ai-sdk agent under Node 26`. */
export function describeMode(app: ConsumerApp, mode: ConsumerMode): string {
  const hooks = mode.shutdownHooks ? ' and app.enableShutdownHooks()' : '';
  return `${app.name} on ${mode.platform}${hooks} with the ${mode.agent} agent under Node ${mode.node}`;
}

/**
 * The consumer proof of one app in one mode, in two steps on one thread: `interruptMidRun`
 * SIGTERMs the app mid-run, `resumeOnRestart` restarts it and retries the run. Checks throw
 * (`ProofCheckError`) with the app's logs appended, so jest and `deps:latest` report the same failure.
 */
export class ConsumerProof {
  private readonly processes: ConsumerProcess[] = [];
  private readonly hooksFile = join(mkdtempSync(join(tmpdir(), 'consumer-hooks-')), 'hooks.jsonl');
  private readonly threadId: string;
  private firstExecutions: string[] = [];
  /** Each started process's module ledger, in start order. */
  private readonly ledgers: string[] = [];

  /** `env` names the app's store (`SQLITE_FILE` or `DATABASE_URL`) and `OPENAI_BASE_URL`; `node` is the binary to run. */
  constructor(
    private readonly dir: string,
    private readonly mode: ConsumerMode,
    private readonly node: string,
    private readonly env: Record<string, string>,
  ) {
    this.threadId = `thread-${mode.platform}-${mode.agent}-${mode.node}`;
  }

  private get runUrlPath(): string {
    return this.mode.agent === 'ai-sdk' ? '/chat/ai-sdk' : '/chat';
  }

  private get input(): Record<string, unknown> {
    return runInput(this.threadId, 'run-1', { id: 'user-1', content: 'count to four' });
  }

  /**
   * SIGTERM after the first tool result: the stream ends `RUN_INTERRUPTED`, a new run is refused
   * 503 with `Retry-After` while the app's own shutdown handler holds the shutdown, the app's
   * hooks run once each after the drain, and the process exits 0.
   */
  async interruptMidRun(): Promise<void> {
    const app = await this.start();
    await withLogs(app, async () => {
      check(
        app.logs.includes(`"node":"v${this.mode.node}.`),
        `the app does not run on Node ${this.mode.node}`,
      );
      const stream = await postRunEvents(`${app.baseUrl}${this.runUrlPath}`, USER, this.input);
      same(stream.status, 200, 'the run request status');
      await stream.waitFor((event) => event.type === 'TOOL_CALL_RESULT', 'the first tool result');
      app.kill('SIGTERM');
      same(
        pick(await stream.terminal()),
        { type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' },
        'the terminal event after SIGTERM',
      );
      const late = runInput(`${this.threadId}-late`, 'run-1', {
        id: 'late-1',
        content: 'too late',
      });
      const refused = await fetch(`${app.baseUrl}/chat`, {
        method: 'POST',
        headers: { ...USER, 'content-type': 'application/json' },
        body: JSON.stringify(late),
      });
      same(refused.status, 503, 'a new run during the shutdown');
      check(Number(refused.headers.get('retry-after')) > 0, 'a 503 without Retry-After');
      same(((await refused.json()) as { code?: string }).code, 'SHUTTING_DOWN', 'the 503 code');
      same(
        (await fetch(`${app.baseUrl}/release`, { method: 'POST' })).status,
        201,
        'releasing the shutdown handler',
      );
      same(await app.waitForExit(15_000), { code: 0, signal: null }, 'the exit');
      const hooks = readFileSync(this.hooksFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { hook: string; drain: string });
      same(
        hooks.map((entry) => entry.hook),
        ['shutdownHandler', ...HOOKS_AFTER_DRAIN],
        'the hooks, in order',
      );
      same(
        hooks.slice(1).map((entry) => entry.drain),
        ['done', 'done', 'done'],
        'the drain phase at each hook',
      );
      this.firstExecutions = app.executions();
    });
  }

  /** A restarted app continues the run from the client's retry: each tool result stored once, no finished call run again, one resume message. */
  async resumeOnRestart(): Promise<void> {
    const app = await this.start();
    await withLogs(app, async () => {
      const retry = await postRunEvents(`${app.baseUrl}${this.runUrlPath}`, USER, this.input);
      same(retry.status, 200, 'the retry status');
      same(
        pick(await retry.terminal()),
        { type: 'RUN_FINISHED' },
        'the terminal event of the retry',
      );
      const response = await fetch(`${app.baseUrl}/threads/${this.threadId}/messages`, {
        headers: USER,
      });
      const { messages } = (await response.json()) as {
        messages: Array<{ role: string; content: string; toolCallId?: string }>;
      };
      const results = messages.filter((message) => message.role === 'tool');
      const ids = results.map((message) => message.toolCallId);
      same(ids, [...new Set(ids)], 'tool results, one per call');
      same(
        results.map((message) =>
          message.content.startsWith(UNKNOWN_OUTCOME)
            ? `counted ${message.toolCallId?.slice(-1)}`
            : message.content,
        ),
        ['counted 1', 'counted 2', 'counted 3', 'counted 4'],
        'one result per step (the call in flight at the stop may be "outcome unknown")',
      );
      same(messages.filter((message) => message.role === 'system').length, 1, 'resume messages');
      const executed = [...this.firstExecutions, ...app.executions()];
      same(executed, [...new Set(executed)], 'tool executions across both processes (none twice)');
      await this.readAsPlainClient(app);
    });
  }

  /**
   * What a plain client that retries until it sees the end gets once the run has ended: the
   * identical request again, and a join without `Last-Event-ID` through the README's join, each
   * one AG-UI sequence ending `RUN_FINISHED`; `Last-Event-ID: abc` there is a 400.
   */
  private async readAsPlainClient(app: ConsumerProcess): Promise<void> {
    const stream = `${app.baseUrl}/threads/${this.threadId}/stream`;
    const answers: Array<[string, RunEvents]> = [
      [
        'an identical re-send',
        await postRunEvents(`${app.baseUrl}${this.runUrlPath}`, USER, this.input),
      ],
      ['a join without Last-Event-ID', await getRunEvents(stream, USER)],
    ];
    for (const [what, answer] of answers) {
      same(
        pick(await answer.terminal()),
        { type: 'RUN_FINISHED' },
        `the terminal event of ${what}`,
      );
      const ends = answer.events.filter((event) =>
        ['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR'].includes(event.type),
      );
      same(
        ends.map((event) => event.type),
        ['RUN_STARTED', 'RUN_FINISHED'],
        `the run events of ${what}`,
      );
    }
    const refused = await fetch(stream, { headers: { ...USER, 'last-event-id': 'abc' } });
    same(
      [refused.status, ((await refused.json()) as { code?: string }).code],
      [400, 'INVALID_EVENT_ID'],
      'a join after Last-Event-ID abc',
    );
  }

  /** What the first process (`interruptMidRun`'s, which exits) loaded, from its module ledger. */
  modulesLoaded(): ModuleLoad[] {
    check(this.ledgers.length > 0, 'no process of this proof has run yet');
    return readModuleLedger(this.ledgers[0]);
  }

  /** Kills what still runs (after a failed step). */
  async stop(): Promise<void> {
    await Promise.all(this.processes.map((app) => app.stop()));
  }

  private async start(): Promise<ConsumerProcess> {
    this.ledgers.push(ledgerFile());
    const env = {
      ...this.env,
      PLATFORM: this.mode.platform,
      HOOKS_FILE: this.hooksFile,
      MODULE_LEDGER_FILE: this.ledgers.at(-1)!,
      ...(this.mode.shutdownHooks ? { SHUTDOWN_HOOKS: '1' } : {}),
    };
    const app = await ConsumerProcess.start(this.dir, env, this.node);
    this.processes.push(app);
    return app;
  }
}

/** The terminal event's type and code: what a proof compares. */
export function pick(event: { type: string; code?: string } | undefined): {
  type?: string;
  code?: string;
} {
  return event?.code ? { type: event.type, code: event.code } : { type: event?.type };
}

/** Runs `checks`; a failure carries the app's last log lines. */
export async function withLogs(app: ConsumerProcess, checks: () => Promise<void>): Promise<void> {
  try {
    await checks();
  } catch (error) {
    // A refused run is logged by Nest after the answer goes out: let that line arrive first.
    await app.waitForLog(/\bERROR\b/, 2_000).catch(() => undefined);
    await app.stop();
    if (error instanceof Error)
      error.message += `\n--- app logs (last 40 lines) ---\n${app.logs.split('\n').slice(-40).join('\n')}`;
    throw error;
  }
}
