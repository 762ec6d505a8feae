import type { ServiceProcess } from './service-process';

/**
 * The demo tool's execution ledger: one entry per `msg` line the processes printed, by
 * tool-call id, optionally of one thread only.
 */
export function toolLedger(
  services: readonly ServiceProcess[],
  msg: 'demo tool started' | 'demo tool finished',
  threadId?: string,
): string[] {
  const ids: string[] = [];
  for (const line of services.flatMap((service) => service.logs.split('\n'))) {
    if (!line.includes(msg)) continue;
    const entry = JSON.parse(line) as { msg: string; toolCallId: string; threadId: string };
    if (entry.msg === msg && (threadId === undefined || entry.threadId === threadId))
      ids.push(entry.toolCallId);
  }
  return ids;
}
