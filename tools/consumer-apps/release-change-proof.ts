import { ConsumerProcess } from './consumer-process';
import { pick, withLogs } from './consumer-proof';
import { check, same } from './proof-checks';
import { postRunEvents, runInput, type RunEvent } from '../bench/run-events';
import {
  chargedCalls,
  inputOf,
  orderUrl,
  threadOf,
  type OrderFramework,
  type OrderRelease,
  type RecordedRelease,
  type ReleaseCase,
} from './order-cases';

const USER = { 'x-user': 'alice' };

/** What a retry gave, and what the apps recorded around it. */
interface Retry {
  app: ConsumerProcess;
  events: RunEvent[];
  terminal: RunEvent | undefined;
  /** The `charge_card` call held when v1 was stopped. */
  held: string;
  /** The thread's last run before the retry (v1's interrupted attempt) and after it. */
  before: RecordedRelease;
  after: RecordedRelease;
  /** The tool results of the thread after the retry, by call id. */
  results: Map<string, string>;
  /** The call ids `charge_card` ran with on the thread so far, in every process of the proof. */
  charged(): Promise<string[]>;
}

/**
 * The consumer proof of a rolling deployment that changes the order agent. `interruptAtCharge`
 * starts the app on release v1 (ORDER_AGENT=v1) with one run per case, each on a fresh thread
 * and held at the pre-acting safe point of its `charge_card` call (HOLD_BEFORE_TOOL), and
 * SIGTERMs it there; each check then starts the app on the case's release (one process per
 * release, on the same store), sends the same request again from a plain HTTP client and checks
 * what came of the held call. The apps serve no `/metrics` (prom-client is not among their
 * packages): the counters are proved by the reference service's suites.
 */
export class ReleaseChangeProof {
  private readonly processes: ConsumerProcess[] = [];
  private readonly byRelease = new Map<OrderRelease, Promise<ConsumerProcess>>();
  private readonly held = new Map<string, string>();

  /** `env` names the app's store (`SQLITE_FILE` or `DATABASE_URL`) and `OPENAI_BASE_URL`; `node` is the binary to run. */
  constructor(
    private readonly dir: string,
    private readonly node: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Runs every case on v1 up to its `charge_card` call, then SIGTERMs the app: each stream ends `RUN_INTERRUPTED` and the app exits 0. */
  async interruptAtCharge(cases: readonly ReleaseCase[]): Promise<void> {
    const app = await this.start({ ORDER_AGENT: 'v1', HOLD_BEFORE_TOOL: 'charge_card' });
    await withLogs(app, async () => {
      const streams = await Promise.all(
        cases.map((one) => postRunEvents(orderUrl(app, one), USER, inputOf(one))),
      );
      same(
        streams.map((stream) => stream.status),
        cases.map(() => 200),
        'the run request statuses',
      );
      for (const one of cases) {
        const held = new RegExp(
          `"msg":"tool call held","tool":"charge_card","toolCallId":"([^"]+)","threadId":"${threadOf(one)}"`,
        );
        await app.waitForLog(held, 30_000);
        this.held.set(threadOf(one), held.exec(app.logs)![1]);
      }
      app.kill('SIGTERM');
      for (const stream of streams)
        same(
          pick(await stream.terminal()),
          { type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' },
          'the terminal event after SIGTERM',
        );
      same(
        (await fetch(`${app.baseUrl}/release`, { method: 'POST' })).status,
        201,
        'releasing the shutdown handler',
      );
      same(await app.waitForExit(15_000), { code: 0, signal: null }, 'the exit');
    });
  }

  /**
   * v2 dropped `charge_card`: the retry finishes; its stream says the held call was not run
   * (`tool_removed`); the call is answered "not run", never ran, and a warn line names it and
   * both versions; the thread's last run is v2's, under another fingerprint.
   */
  async removedTool(framework: OrderFramework): Promise<void> {
    await this.retry({ framework, to: 'v2-no-charge' }, async (retry) => {
      await this.notRun(retry, 'tool_removed', 'not run: the tool "charge_card" no longer exists');
      const line = retry.app.logs
        .split('\n')
        .find((entry) => entry.includes('tool call not run') && entry.includes(retry.held));
      check(line !== undefined, `no "tool call not run" line names the call ${retry.held}`);
      for (const part of ['WARN', 'tool=charge_card', 'fromVersion=1.0.0', 'toVersion=2.0.0'])
        check(line!.includes(part), `the warn line lacks ${part}: ${line}`);
    });
  }

  /**
   * v2's `charge_card` requires a `currency`: the held call (v1's arguments) is answered with
   * the validation error (`invalid_arguments`) and never runs, so nothing is charged `10 UNDEFINED`.
   */
  async refusedArguments(framework: OrderFramework): Promise<void> {
    await this.retry({ framework, to: 'v2-currency' }, async (retry) => {
      const wrong = [...retry.results.values()].find((result) => result.includes('UNDEFINED'));
      check(wrong === undefined, `v2's charge_card ran on v1's arguments: ${wrong}`);
      await this.notRun(
        retry,
        'invalid_arguments',
        'not run: the arguments of this call do not fit the tool "charge_card"',
      );
    });
  }

  /**
   * Retried on v1 itself: the held call runs once, on the retry; the interrupted attempt and the
   * retry record the same release. Returns it.
   */
  async sameRelease(framework: OrderFramework): Promise<RecordedRelease> {
    let recorded: RecordedRelease | undefined;
    await this.retry({ framework, to: 'v1' }, async (retry) => {
      same(pick(retry.terminal), { type: 'RUN_FINISHED' }, 'the terminal event of the retry');
      check(
        !retry.events.some((event) => event.name === 'agent_version_changed'),
        'a retry on the same release announced a version change',
      );
      same(await retry.charged(), [retry.held], 'the charge_card executions');
      same(retry.results.get(retry.held), 'charged 10 USD', 'the result of the held call');
      same(retry.before.agentVersion, '1.0.0', 'the interrupted attempt');
      same(retry.after, retry.before, 'the release of the retry');
      recorded = retry.after;
    });
    return recorded!;
  }

  /**
   * v2 added a `planner` node and a `plan` channel its `agent` node reads: the retry finishes,
   * or at worst the next turn on the thread does; either way nothing is charged twice.
   */
  async changedGraph(): Promise<void> {
    await this.retry({ framework: 'langgraph', to: 'v2-planner' }, async (retry) => {
      const next =
        retry.terminal?.type === 'RUN_FINISHED'
          ? retry.terminal
          : await this.nextTurn(retry.app, { framework: 'langgraph', to: 'v2-planner' });
      same(
        pick(next),
        { type: 'RUN_FINISHED' },
        `the retry (${JSON.stringify(pick(retry.terminal))}) or else the next turn`,
      );
      const charged = await retry.charged();
      check(charged.length <= 1, `charge_card ran ${charged.length} times on the thread`);
    });
  }

  /** Kills what still runs. */
  async stop(): Promise<void> {
    await Promise.all(this.processes.map((app) => app.stop()));
  }

  /** The retry finished on v2, its stream names the held call as not run for `reason`, its result begins `result`, it never ran, and the thread's last run is v2's. */
  private async notRun(retry: Retry, reason: string, result: string): Promise<void> {
    same(await retry.charged(), [], 'the charge_card executions');
    same(pick(retry.terminal), { type: 'RUN_FINISHED' }, 'the terminal event of the retry');
    const changed = retry.events.find(
      (event) => event.type === 'CUSTOM' && event.name === 'agent_version_changed',
    )?.value as
      | {
          from: { version: string };
          to: { version: string };
          notRun: Array<{ toolCallId: string; toolName: string; reason: string }>;
        }
      | undefined;
    same(
      [changed?.from.version, changed?.to.version, changed?.notRun],
      ['1.0.0', '2.0.0', [{ toolCallId: retry.held, toolName: 'charge_card', reason }]],
      'the agent_version_changed event',
    );
    check(
      retry.results.get(retry.held)?.startsWith(result) === true,
      `the held call's result: ${retry.results.get(retry.held)}`,
    );
    same(
      [retry.before.agentVersion, retry.after.agentVersion],
      ['1.0.0', '2.0.0'],
      'the versions of the interrupted attempt and the retry',
    );
    check(
      retry.after.agentFingerprint !== retry.before.agentFingerprint,
      `both attempts record the fingerprint ${retry.after.agentFingerprint}`,
    );
  }

  /** Sends the case's request again to an app on the case's release, then runs `checks` on what came, with that app's logs on a failure. */
  private async retry(one: ReleaseCase, checks: (retry: Retry) => Promise<void>): Promise<void> {
    const thread = threadOf(one);
    const held = this.held.get(thread);
    check(held !== undefined, `no charge_card call of ${thread} was held on v1`);
    if (!this.byRelease.has(one.to))
      this.byRelease.set(one.to, this.start({ ORDER_AGENT: one.to }));
    const app = await this.byRelease.get(one.to)!;
    await withLogs(app, async () => {
      const read = async <T>(path: string) =>
        (await (
          await fetch(`${app.baseUrl}/threads/${thread}${path}`, { headers: USER })
        ).json()) as T;
      const before = (await read<{ lastRun: RecordedRelease }>('')).lastRun;
      const stream = await postRunEvents(orderUrl(app, one), USER, inputOf(one));
      const terminal = await stream.terminal();
      const toolResults = async () => {
        const { messages } = await read<{
          messages: Array<{ role: string; content: string; toolCallId?: string }>;
        }>('/messages');
        return new Map(
          messages
            .filter((message) => message.role === 'tool')
            .map((message) => [message.toolCallId ?? '', message.content]),
        );
      };
      const results = await toolResults();
      const after = (await read<{ lastRun: RecordedRelease }>('')).lastRun;
      // A call id is the thread's when the call was held on it or answered on it.
      const charged = async () => {
        const answered = await toolResults();
        return this.processes
          .flatMap((process) => chargedCalls(process.logs))
          .filter((id) => id === held || answered.has(id));
      };
      await checks({
        app,
        events: stream.events,
        terminal,
        held: held!,
        before: release(before),
        after: release(after),
        results,
        charged,
      });
    });
  }

  private async nextTurn(app: ConsumerProcess, one: ReleaseCase): Promise<RunEvent | undefined> {
    const next = runInput(threadOf(one), 'run-2', { id: 'user-2', content: 'settle it now' });
    return (await postRunEvents(orderUrl(app, one), USER, next)).terminal();
  }

  private async start(env: Record<string, string>): Promise<ConsumerProcess> {
    const app = await ConsumerProcess.start(this.dir, { ...this.env, ...env }, this.node);
    this.processes.push(app);
    return app;
  }
}

function release({ agentVersion, agentFingerprint }: RecordedRelease): RecordedRelease {
  return { agentVersion, agentFingerprint };
}
