import { BadRequestException } from '@nestjs/common';

/**
 * Where a join starts: the `Last-Event-ID` header (what browsers' EventSource sends on its
 * own) or the `lastEventId` query; the header wins. A non-negative integer; unset: from the start.
 */
export function parseLastEventId(header: string | string[] | undefined, query: unknown): number | undefined {
  const [field, value] = header !== undefined ? ['Last-Event-ID', Array.isArray(header) ? header[0] : header] : ['lastEventId', query];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) {
    throw new BadRequestException({ code: 'INVALID_EVENT_ID', message: `${field}: must be a non-negative integer (an event id of the run's stream)` });
  }
  return Number(value);
}
