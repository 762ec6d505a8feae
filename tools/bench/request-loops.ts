import type { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { messageOf } from './bench-stats';
import { closedWhileSending, sendRequest, type BodyRequest } from './body-request';

/** How often each answer came, keyed `401 UNAUTHORIZED` (status and code) or `no answer: …`. */
export type AnswerCounts = Map<string, number>;

/** The key of a request whose connection the server closed before the client read its answer. */
export const CLOSED_WHILE_SENDING = 'closed while sending';

/** The key of an answer in `AnswerCounts`: its status, and its code when the body has one. */
export function answerKey(status: number, code?: string): string {
  return code ? `${status} ${code}` : String(status);
}

/** Adds `n` answers of `key` to `counts`. */
export function countAnswer(counts: AnswerCounts, key: string, n = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}

/**
 * Sends `request` from `clients` loops, each one request at a time on a new connection, for as
 * long as `keepGoing()` says (asked before each request), and counts the answers into `counts`
 * as they come (so a caller can watch them).
 */
export async function sendInLoops(
  baseUrl: string,
  request: BodyRequest,
  agent: Agent,
  clients: number,
  keepGoing: () => boolean,
  counts: AnswerCounts = new Map(),
): Promise<AnswerCounts> {
  const loop = async () => {
    while (keepGoing()) {
      try {
        const answer = await sendRequest(baseUrl, request, agent);
        countAnswer(counts, answerKey(answer.status, answer.code));
      } catch (error) {
        countAnswer(
          counts,
          closedWhileSending(error) ? CLOSED_WHILE_SENDING : `no answer: ${messageOf(error)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  return counts;
}

/** How many answers `counts` holds. */
export function answered(counts: AnswerCounts): number {
  return [...counts.values()].reduce((sum, n) => sum + n, 0);
}

/**
 * A user's requests, one after the other, for `windowMs`: each one's time from sending to the
 * end of its answer, in milliseconds, and the answers it got.
 */
export async function userLatencies(
  baseUrl: string,
  request: BodyRequest,
  agent: Agent,
  windowMs: number,
): Promise<{ samplesMs: number[]; counts: AnswerCounts }> {
  const samplesMs: number[] = [];
  const endAt = performance.now() + windowMs;
  const counts: AnswerCounts = new Map();
  while (performance.now() < endAt) {
    const startedAt = performance.now();
    const answer = await sendRequest(baseUrl, request, agent);
    samplesMs.push(performance.now() - startedAt);
    countAnswer(counts, answerKey(answer.status, answer.code));
  }
  return { samplesMs, counts };
}
