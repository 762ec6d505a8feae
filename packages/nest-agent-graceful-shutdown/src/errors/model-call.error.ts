/** Why a model call failed; stable, so callers and logs can branch on it. */
export type ModelCallErrorCode =
  | 'MODEL_AUTH_FAILED'
  | 'MODEL_NOT_FOUND'
  | 'MODEL_RATE_LIMITED'
  | 'MODEL_UNAVAILABLE'
  | 'MODEL_TIMEOUT'
  | 'MODEL_UNREACHABLE'
  | 'MODEL_BAD_RESPONSE'
  | 'MODEL_REQUEST_REJECTED';

/** What to check for each code; appended to the message so a log line alone says what to do. */
const ADVICE: Record<ModelCallErrorCode, string> = {
  MODEL_AUTH_FAILED: 'check OPENAI_API_KEY and that the key may use this model',
  MODEL_NOT_FOUND:
    'check MODEL_NAME and OPENAI_BASE_URL (an OpenAI-compatible base URL usually ends in /v1)',
  MODEL_RATE_LIMITED:
    'the call was already retried with backoff; lower the request rate, raise the account limits, or retry the run later',
  MODEL_UNAVAILABLE:
    'the model server failed even after retries; check its health and retry the run later',
  MODEL_TIMEOUT: 'check that the model server is up and not overloaded, or raise the model timeout',
  MODEL_UNREACHABLE:
    'check OPENAI_BASE_URL and that the model server is running and reachable from this host',
  MODEL_BAD_RESPONSE:
    'check that OPENAI_BASE_URL points at an OpenAI-compatible chat completions endpoint that supports streaming',
  MODEL_REQUEST_REJECTED:
    'the server refused the request; its message says why (check MODEL_NAME and that the model supports tools and streaming)',
};

/**
 * A call to the chat model failed for a reason other than the run being stopped (that is a
 * `CallAbortedError`). Retryable failures (429, 5xx, timeouts) only surface here once the
 * client's own retries are spent. `code` says what went wrong, `status` is the HTTP status
 * when the server answered, and the message ends with what to check.
 */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  /** HTTP status of the failing answer; absent when no answer came (timeout, connection, stream). */
  readonly status?: number;

  /** `detail` says what happened; the advice for `code` is appended. */
  constructor(
    readonly code: ModelCallErrorCode,
    detail: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(`${detail}; ${ADVICE[code]}`, { cause: options.cause });
    if (options.status !== undefined) this.status = options.status;
  }
}
