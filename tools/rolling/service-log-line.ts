/** A JSON line of the service's log (pino: one flat object per line), as far as the proofs read it. */
export interface ServiceLogLine {
  /** Epoch milliseconds. */
  time?: number;
  context?: string;
  msg?: string;
  threadId?: string;
  runId?: string;
  toolCallId?: string;
  step?: number;
  /** The demo tool call's idempotency key and fencing token (releases with the demo ledger). */
  idempotencyKey?: string;
  fencingToken?: number;
  /** On `demo tool finished`: true when the ledger already held the key's effect, so none was made. */
  duplicate?: boolean;
}

/** The log line when it is JSON and its message is `msg`; undefined for any other line. */
export function logLineWith(line: string, msg: string): ServiceLogLine | undefined {
  if (!line.includes(msg)) return undefined;
  try {
    const parsed = JSON.parse(line) as ServiceLogLine;
    return parsed.msg === msg ? parsed : undefined;
  } catch {
    return undefined;
  }
}
