import { InvalidEventIdError } from 'nest-agent-graceful-shutdown';

/**
 * Where a join starts: the `Last-Event-ID` header (what browsers' EventSource sends on its
 * own) or the `lastEventId` query; the header wins. Digits only, at most
 * `Number.MAX_SAFE_INTEGER`; unset or empty: from the start. Anything else (`abc`, `-1`, `1.5`)
 * is `InvalidEventIdError`: 400 `INVALID_EVENT_ID` naming the field.
 */
export function parseLastEventId(
  header: string | string[] | undefined,
  query: unknown,
): number | undefined {
  const [field, value] =
    header !== undefined
      ? ['Last-Event-ID', Array.isArray(header) ? header[0] : header]
      : ['lastEventId', query];
  if (value === undefined || value === '') return undefined;
  const id = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) throw new InvalidEventIdError(field, value);
  return id;
}
