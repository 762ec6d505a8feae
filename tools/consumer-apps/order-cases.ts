import type { ConsumerProcess } from './consumer-process';
import { runInput } from '../bench/run-events';

/** A framework the consumer apps' order agent is written with (`POST /orders/{framework}`). */
export type OrderFramework = 'native' | 'ai-sdk' | 'langgraph';

/** A release of the order agent (the apps' ORDER_AGENT). */
export type OrderRelease = 'v1' | 'v2-no-charge' | 'v2-currency' | 'v2-planner';

/** One case: the order agent written with `framework`, started on v1 and retried on `to`. */
export interface ReleaseCase {
  framework: OrderFramework;
  to: OrderRelease;
}

/** The release a thread's last run recorded (`lastRun` of `GET /threads/{id}`). */
export interface RecordedRelease {
  agentVersion: string | null;
  agentFingerprint: string | null;
}

/** The case's thread: fresh for each case. */
export function threadOf(one: ReleaseCase): string {
  return `order-${one.framework}-to-${one.to}`;
}

/** The case's run request: the same on v1 and on its retry. */
export function inputOf(one: ReleaseCase): Record<string, unknown> {
  return runInput(threadOf(one), 'run-1', { id: 'user-1', content: 'settle order A-1' });
}

/** Where the case's order agent runs on `app`. */
export function orderUrl(app: ConsumerProcess, one: ReleaseCase): string {
  return `${app.baseUrl}/orders/${one.framework}`;
}

/** The call ids `charge_card` ran with in an app (its `order tool executed` ledger lines). */
export function chargedCalls(logs: string): string[] {
  return [
    ...logs.matchAll(/"msg":"order tool executed","tool":"charge_card","toolCallId":"([^"]*)"/g),
  ].map(([, id]) => id);
}
