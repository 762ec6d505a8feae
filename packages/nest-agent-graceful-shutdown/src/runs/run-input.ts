import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { ResumeAnswer } from '../resume/approval-answers.js';
import type { RunAgentInput } from '@ag-ui/core';
import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';

/** Thread and run ids: letters, digits and `._:-`, 1 to 128 characters (but see `isValidId`). */
export const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** What an id must be, for messages that name a bad one. */
export const ID_RULE = `must match ${ID_PATTERN.source} and not be . or ..`;

/**
 * Whether `id` is a valid thread or run id: it matches `ID_PATTERN` and is not `.` or `..`,
 * which a path or URL would take for a directory step rather than a name.
 */
export function isValidId(id: string): boolean {
  return ID_PATTERN.test(id) && id !== '.' && id !== '..';
}

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
  if (!isValidId(input.threadId)) throw new InvalidRunInputError('threadId', ID_RULE);
  if (!isValidId(input.runId)) throw new InvalidRunInputError('runId', ID_RULE);
  const seen = new Set<string>();
  const userMessages: IncomingUserMessage[] = [];
  input.messages.forEach((message, index) => {
    if (!message.id || message.id.length > 128) {
      throw new InvalidRunInputError(`messages[${index}].id`, 'must be a string of 1 to 128 characters');
    }
    if (message.role !== 'user' || seen.has(message.id)) {
      seen.add(message.id);
      return;
    }
    seen.add(message.id);
    userMessages.push({ id: message.id, content: userText(message.content, index) });
  });
  const resume = (input.resume ?? []).map(({ interruptId, status, payload }) => ({ interruptId, status, payload }));
  return { threadId: input.threadId, runId: input.runId, userMessages, resume };
}

function userText(content: unknown, index: number): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content as Array<{ type?: string; text?: string }>;
    const other = parts.findIndex((part) => part.type !== 'text');
    if (other >= 0) throw new InvalidRunInputError(`messages[${index}].content[${other}].type`, 'only text parts are supported');
    return parts.map((part) => part.text ?? '').join('');
  }
  throw new InvalidRunInputError(`messages[${index}].content`, 'must be a string or an array of text parts');
}

function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), '');
}
