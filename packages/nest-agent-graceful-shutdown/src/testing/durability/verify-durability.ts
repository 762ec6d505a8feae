import type { AgentDefinition } from '../../agent/agent-definition.js';
import type { AgentMessage } from '../../agent/agent-message.js';
import { StopReason } from '../../agent/stop-reason.js';
import type { ThreadRecord } from '../../contracts/session-records.js';
import { AgentVersionChangedError } from '../../errors/agent-version-changed.error.js';
import type { DurableAgent } from '../../handle/run-handle.interface.js';
import { defaultResumeMessage } from '../../resume/resume-message.js';
import { AgentReleaseCheck } from '../../runs/agent-release-check.js';
import { planThreadRun } from '../../runs/thread-run-plan.js';
import { toDurableAgent } from '../../runtime/durable-agent.js';
import { runAttempt, type AttemptResult, type AttemptTrace } from './durability-attempt.js';
import {
  executionFailures,
  finalAnswerOf,
  historyFailures,
  releaseFailures,
} from './durability-checks.js';
import type { DurabilityReport, InterruptionPoint, PointReport } from './durability-report.js';
import { DurabilityStore, type ToolExecution } from './durability-store.js';

/** Makes a fresh agent, as a new process would: its model scripted from the conversation, never from a call counter. */
export type AgentFactory = () => AgentDefinition | DurableAgent;

/** What `verifyDurability` runs the agent with. */
export interface DurabilityOptions {
  /** The user's message, or messages, that start the run. */
  input: string | readonly string[];
  /** A second version of the agent: every point is also interrupted on `makeAgent` and resumed on it. */
  next?: AgentFactory;
  /** Tools safe to run twice. @default those whose `toolTraits` say `idempotent` */
  idempotentTools?: readonly string[];
  /** The version label of an agent that has none (the module's `runs.agentVersion`). @default 'unversioned' */
  agentVersion?: string;
}

/** What the uninterrupted run left, to compare each resumed run with. */
interface Baseline {
  executions: readonly ToolExecution[];
  finalAnswer: string;
}

/**
 * Proves that an agent survives a shutdown anywhere: runs it once uninterrupted, then once per
 * interruption point it passed (each pre-reasoning and pre-acting safe point, each model answer
 * once it has streamed, each tool call once its start is durable), each attempt on a fresh
 * agent, interrupted there as a shutdown would and resumed on another fresh agent through the
 * module's own resume path (the interrupt marker, the resume plan, the release check). It checks
 * that no tool that is not idempotent ran twice, that the history stays valid for the chat
 * format, and that the resumed run completes with the uninterrupted run's answer. With `next`,
 * it also resumes every point on the second version and reports what the version policy did.
 *
 * @example
 * const report = await verifyDurability(makeAgent, { input: 'Order 42: charge and send the receipt' });
 * expect(report.failures).toEqual([]);
 */
export async function verifyDurability(
  makeAgent: AgentFactory,
  options: DurabilityOptions,
): Promise<DurabilityReport> {
  const releases = new AgentReleaseCheck({
    agentVersion: options.agentVersion ?? 'unversioned',
    onVersionChange: 'adapt',
  });
  const input = userMessages(options.input);
  const store = new DurabilityStore();
  const agent = toDurableAgent(makeAgent());
  const first = await runAttempt({
    agent,
    release: releases.releaseOf(agent),
    store,
    history: [],
    prelude: input,
  });
  const failures = [
    ...outcomeFailures(first, 'the uninterrupted run'),
    ...historyFailures(store.messages),
  ];
  const baseline: Baseline = {
    executions: store.executions,
    finalAnswer: finalAnswerOf(store.messages),
  };
  const isIdempotent = (tool: string) =>
    options.idempotentTools?.includes(tool) ?? agent.toolTraits(tool)?.idempotent === true;
  const points: PointReport[] = [];
  const resumes: Array<{ next: AgentFactory; across: boolean }> = [
    { next: makeAgent, across: false },
  ];
  if (options.next) resumes.push({ next: options.next, across: true });
  for (const { next, across } of resumes) {
    for (const point of pointsOf(first.trace)) {
      points.push(
        await interruptAndResume({
          point,
          makeAgent,
          next,
          across,
          input,
          releases,
          baseline,
          isIdempotent,
        }),
      );
    }
  }
  return {
    points,
    failures: [
      ...failures.map((failure) => `uninterrupted run: ${failure}`),
      ...points.flatMap(prefixed),
    ],
    finalAnswer: baseline.finalAnswer,
  };
}

/** Every interruption point the uninterrupted run passed, in kind order. */
export function pointsOf(trace: AttemptTrace): InterruptionPoint[] {
  const points: InterruptionPoint[] = [];
  for (let i = 1; i <= trace.preReasoning; i++)
    points.push({ kind: 'pre-reasoning', index: i, label: `pre-reasoning#${i}` });
  trace.preActing.forEach((tool, i) =>
    points.push({ kind: 'pre-acting', index: i + 1, tool, label: `pre-acting#${i + 1} ${tool}` }),
  );
  for (const round of trace.streamed)
    points.push({ kind: 'mid-stream', index: round, label: `mid-stream#${round}` });
  trace.started.forEach((tool, i) =>
    points.push({ kind: 'mid-tool', index: i + 1, tool, label: `mid-tool#${i + 1} ${tool}` }),
  );
  return points;
}

interface PointRun {
  point: InterruptionPoint;
  makeAgent: AgentFactory;
  next: AgentFactory;
  across: boolean;
  input: AgentMessage[];
  releases: AgentReleaseCheck;
  baseline: Baseline;
  isIdempotent: (tool: string) => boolean;
}

async function interruptAndResume(run: PointRun): Promise<PointReport> {
  const { point, releases, across } = run;
  const store = new DurabilityStore();
  const agent = toDurableAgent(run.makeAgent());
  const release = releases.releaseOf(agent);
  const interrupted = await runAttempt({
    agent,
    release,
    store,
    history: [],
    prelude: run.input,
    interruptAt: point,
  });
  const report: PointReport = {
    point: point.label,
    acrossVersions: across,
    ok: false,
    failures: [],
  };
  if (interrupted.outcome.stopReason !== StopReason.Interrupted) {
    report.failures.push(`the run was not interrupted: it ended ${interrupted.outcome.stopReason}`);
  }
  const resumer = toDurableAgent(run.next());
  const history = store.messages;
  const thread = threadAfter(interrupted, store);
  let plan;
  try {
    const facts = {
      agent: resumer,
      releases,
      resumeMessage: defaultResumeMessage,
      findToolCalls: (_: string, ids: readonly string[]) => store.findToolCalls(ids),
    };
    plan = await planThreadRun(thread, history, { threadId: 't', runId: 'r', resume: [] }, facts);
  } catch (error) {
    if (!(error instanceof AgentVersionChangedError)) throw error;
    report.versionChange = {
      from: {
        version: thread.interrupt?.agentVersion ?? '',
        fingerprint: thread.interrupt?.agentFingerprint ?? '',
      },
      to: releases.releaseOf(resumer),
      refused: true,
    };
    return settle(report);
  }
  await store.append(plan.resolvedResults);
  store.recordNotRun(plan.notRun);
  if (plan.release.change)
    report.versionChange = {
      from: plan.release.change.from,
      to: plan.release.change.to,
      refused: false,
    };
  if (plan.notRun.length)
    report.notRun = plan.notRun.map(({ call, reason }) => ({
      toolCallId: call.id,
      tool: call.name,
      reason,
    }));
  store.attempt = 2;
  const resumed = await runAttempt({
    agent: resumer,
    release: plan.release.release,
    store,
    history: store.messages,
    toRun: plan.toRun,
    prelude: plan.resumeMessage ? [plan.resumeMessage] : [],
    resumed: plan.resumeMessage !== null,
    savedState: plan.release.savedState,
    versionChange: plan.release.change,
  });
  report.finalAnswer = finalAnswerOf(store.messages);
  report.failures.push(
    ...outcomeFailures(resumed, 'the resumed run'),
    ...historyFailures(store.messages),
    ...executionFailures(store.executions, run.baseline.executions, run.isIdempotent),
  );
  if (across)
    report.failures.push(
      ...(await releaseFailures(
        store.executions.filter((run) => run.attempt === 2),
        resumer,
      )),
    );
  else if (report.finalAnswer !== run.baseline.finalAnswer) {
    report.failures.push(
      `the final answer ${JSON.stringify(report.finalAnswer)} is not the uninterrupted run's ${JSON.stringify(run.baseline.finalAnswer)}`,
    );
  }
  return settle(report);
}

/** The thread as the store keeps it after the interrupted attempt: its status, its marker (with the release that wrote it), its saved state. */
function threadAfter({ marker }: AttemptResult, store: DurabilityStore): ThreadRecord {
  const now = new Date().toISOString();
  const status = marker ? 'interrupted' : 'idle';
  return {
    threadId: 't',
    ownerId: 'user',
    status,
    messageCount: store.messages.length,
    activeRunId: null,
    interrupt: marker,
    runState: store.state,
    lastRun: null,
    createdAt: now,
    updatedAt: now,
  };
}

function outcomeFailures({ outcome }: AttemptResult, which: string): string[] {
  if (outcome.stopReason === StopReason.Completed) return [];
  return [
    `${which} ended ${outcome.stopReason}${outcome.error ? `: ${outcome.error.message}` : ''}`,
  ];
}

function settle(report: PointReport): PointReport {
  return { ...report, ok: report.failures.length === 0 };
}

function prefixed(report: PointReport): string[] {
  const where = report.acrossVersions
    ? `${report.point} (resumed on the next version)`
    : report.point;
  return report.failures.map((failure) => `${where}: ${failure}`);
}

function userMessages(input: string | readonly string[]): AgentMessage[] {
  return (typeof input === 'string' ? [input] : input).map((content, i) => ({
    id: `user-${i + 1}`,
    role: 'user',
    content,
  }));
}
