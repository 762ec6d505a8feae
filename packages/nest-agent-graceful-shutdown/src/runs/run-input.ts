import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { ResumeAnswer } from '../resume/approval-answers.js';
import type { RunAgentInput } from '@ag-ui/core';
import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';
import { ID_RULE, isValidId } from '../arguments/id-rule.js';
import { isStorableText, TEXT_RULE } from '../arguments/text-rule.js';

export { ID_PATTERN, ID_RULE, isValidId } from '../arguments/id-rule.js';

/** The longest id of an echoed (never stored) message, in characters. */
const MAX_ECHO_ID_LENGTH = 128;

/** A message of the client's input that the service may add to the history. */
export interface IncomingUserMessage {
  id: string;
  content: string;
}

export type { ResumeAnswer } from '../resume/approval-answers.js';

/** A run request, validated. */
export interface ValidRunInput {
  threadId: string;
  runId: string;
  /** The user messages of the input, in order; duplicates by id removed. */
  userMessages: IncomingUserMessage[];
  /** Answers to the interrupts of a run paused for approval; empty otherwise. */
  resume: ResumeAnswer[];
}

/**
 * Validates an AG-UI `RunAgentInput`; throws `InvalidRunInputError` naming the first bad field.
 * Only user messages are input: assistant, tool and system messages are the stored history's
 * echoes (the stored history is the source of truth).
 */
export function parseRunInput(body: unknown): ValidRunInput {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidRunInputError(fieldPath(issue.path) || 'body', issue.message);
  }
  const input: RunAgentInput = parsed.data as RunAgentInput;
  checkInputId('threadId', input.threadId);
  checkInputId('runId', input.runId);
  const seen = new Set<string>();
  const userMessages: IncomingUserMessage[] = [];
  input.messages.forEach((message, index) => {
    if (message.role === 'user') checkMessageId(`messages[${index}].id`, message.id);
    else checkEchoId(`messages[${index}].id`, message.id);
    if (message.role !== 'user' || seen.has(message.id)) {
      seen.add(message.id);
      return;
    }
    seen.add(message.id);
    const content = userText(message.content, index);
    checkText(`messages[${index}].content`, content);
    userMessages.push({ id: message.id, content });
  });
  const resume = (input.resume ?? []).map(({ interruptId, status, payload }) => ({
    interruptId,
    status,
    payload,
  }));
  resume.forEach((answer, index) => checkAnswer(answer, index));
  return { threadId: input.threadId, runId: input.runId, userMessages, resume };
}

/**
 * Checks a run request that may not come from `parseRunInput` (a caller's own object): its ids,
 * its messages' ids and texts, its approval answers. Throws `InvalidRunInputError` naming the
 * first bad field, as `parseRunInput` does, before the services read or write anything.
 */
export function checkRunInput(input: ValidRunInput): ValidRunInput {
  if (input === null || typeof input !== 'object')
    throw new InvalidRunInputError('input', 'must be a run request; build it with parseRunInput');
  checkInputId('threadId', input.threadId);
  checkInputId('runId', input.runId);
  listOf<IncomingUserMessage>(input.userMessages, 'userMessages').forEach((message, index) => {
    checkMessageId(`userMessages[${index}].id`, message?.id);
    if (typeof message?.content !== 'string')
      throw new InvalidRunInputError(`userMessages[${index}].content`, 'must be a string');
    checkText(`userMessages[${index}].content`, message.content);
  });
  listOf<ResumeAnswer>(input.resume, 'resume').forEach((answer, index) =>
    checkAnswer(answer, index),
  );
  return input;
}

/**
 * An approval answer: its interrupt id (a tool call's, as the run's stream named it) is 1 to
 * `MAX_ECHO_ID_LENGTH` characters of storable text, its status `resolved` or `cancelled`, and
 * every string of its payload (keys too) storable text: the payload is stored with the call.
 */
function checkAnswer(answer: Partial<ResumeAnswer> | null | undefined, index: number): void {
  const id = answer?.interruptId;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ECHO_ID_LENGTH) {
    throw new InvalidRunInputError(
      `resume[${index}].interruptId`,
      `must be a string of 1 to ${MAX_ECHO_ID_LENGTH} characters`,
    );
  }
  checkText(`resume[${index}].interruptId`, id);
  if (answer!.status !== 'resolved' && answer!.status !== 'cancelled') {
    throw new InvalidRunInputError(`resume[${index}].status`, 'must be resolved or cancelled');
  }
  const bad = unstorablePath(answer!.payload, `resume[${index}].payload`);
  if (bad) throw new InvalidRunInputError(bad, TEXT_RULE);
}

/** The path of the first string (or key) in a JSON value that a store would not hold as sent; undefined when none. */
function unstorablePath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const bad = unstorablePath(item, `${path}[${index}]`);
      if (bad) return bad;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return path;
      const bad = unstorablePath(item, `${path}.${key}`);
      if (bad) return bad;
    }
  }
  return undefined;
}

/** A thread or run id of a run request (`isValidId`), else `InvalidRunInputError` naming `field`. */
function checkInputId(field: string, value: unknown): void {
  if (typeof value !== 'string' || !isValidId(value))
    throw new InvalidRunInputError(field, ID_RULE);
}

/**
 * A user message id follows the thread and run id rule (`isValidId`): what the history holds is then
 * what the client sent, and a retry's ids compare equal to the stored ones on every store.
 */
function checkMessageId(field: string, value: unknown): void {
  if (typeof value !== 'string' || !isValidId(value))
    throw new InvalidRunInputError(field, ID_RULE);
}

/**
 * The id of an echoed assistant, tool or system message: never stored (the stored history is the
 * source of truth), and chosen by the stream that sent it (an adapter's or a model's id), so a
 * client can always send back what it received; only its size is bounded.
 */
function checkEchoId(field: string, value: unknown): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ECHO_ID_LENGTH) {
    throw new InvalidRunInputError(
      field,
      `must be a string of 1 to ${MAX_ECHO_ID_LENGTH} characters`,
    );
  }
}

/** Text every store holds as sent (`isStorableText`), else `InvalidRunInputError` naming `field`. */
function checkText(field: string, text: string): void {
  if (!isStorableText(text)) throw new InvalidRunInputError(field, TEXT_RULE);
}

/** The entries of a list a caller built: any of them may be anything. */
function listOf<T>(value: unknown, field: string): Array<Partial<T> | null | undefined> {
  if (!Array.isArray(value)) throw new InvalidRunInputError(field, 'must be an array');
  return value as Array<Partial<T> | null | undefined>;
}

function userText(content: unknown, index: number): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content as Array<{ type?: string; text?: string }>;
    const other = parts.findIndex((part) => part.type !== 'text');
    if (other >= 0)
      throw new InvalidRunInputError(
        `messages[${index}].content[${other}].type`,
        'only text parts are supported',
      );
    return parts.map((part) => part.text ?? '').join('');
  }
  throw new InvalidRunInputError(
    `messages[${index}].content`,
    'must be a string or an array of text parts',
  );
}

function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (acc, key) =>
      typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key),
    '',
  );
}
