import { formatProofReport, type ReportRow } from '../rolling/proof-report';
import type { ChaosResult } from './chaos-run';

/** The audit as a table, then `PASSED` or each broken promise. */
export function formatChaosReport(result: ChaosResult, logDir: string): string {
  const { audit } = result;
  const errors = Object.entries(audit.runErrors)
    .map(([code, count]) => `${code} ×${count}`)
    .join(', ');
  const rows: ReportRow[] = [
    ['seed', String(result.seed)],
    ['threads (users)', String(audit.threads)],
    ['instances started', String(result.instancesStarted)],
    [
      'turns completed / cancelled / not ended',
      `${audit.turns.completed} / ${audit.turns.cancelled} / ${audit.turns.failed.length}`,
    ],
    ['messages checked', String(audit.messagesChecked)],
    ['messages lost', String(audit.messagesLost.length)],
    ['messages duplicated', String(audit.messagesDuplicated.length)],
    ['tool executions', String(audit.toolExecutions)],
    ['tool executions duplicated', String(audit.toolExecutionsDuplicated.length)],
    ['re-runs before a saved result (allowed)', String(audit.toolReRunsBeforeSave)],
    ['tool executions without a saved result', String(audit.toolExecutionsUnsaved.length)],
    ['tool effects (ledger table, one per idempotency key)', String(audit.toolEffects.effects)],
    ['tool effects duplicated (two with one key)', String(audit.toolEffects.duplicated.length)],
    ['late effects refused by fencing token (allowed)', String(audit.toolEffects.refused)],
    ['runs stuck running', String(audit.runsStuckRunning.length)],
    ['threads resumable at the end', String(audit.threadsResumable)],
    ['threads neither finished nor resumable', String(audit.threadsNotResumable.length)],
    ['HTTP requests', String(audit.requests)],
    ['5xx with a retry path', String(audit.retried5xx)],
    ['5xx without a retry path', String(audit.unexplained5xx.length)],
    ['network errors (retried)', String(audit.networkErrors)],
    ['run errors seen', errors || 'none'],
    ['instance failures', String(audit.fleetProblems.length)],
    ['duration', `${Math.round(result.durationMs / 1000)} s`],
  ];
  return formatProofReport(
    [`chaos audit, seed ${result.seed}`],
    rows,
    { passed: result.passed, problems: result.problems },
    [`instance logs: ${logDir}`],
  );
}
