import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

/** Longest a cancel may wait for the run to stop, in milliseconds. */
export const MAX_CANCEL_WAIT_MS = 30_000;

/** Parses the optional `waitMs` query parameter: an integer from 0 to 30000. */
@Injectable()
export class WaitMsPipe implements PipeTransform<unknown, number | undefined> {
  transform(value: unknown): number | undefined {
    if (value === undefined) return undefined;
    const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(n >= 0 && n <= MAX_CANCEL_WAIT_MS)) {
      throw new BadRequestException({ code: 'INVALID_WAIT', message: `waitMs: must be an integer from 0 to ${MAX_CANCEL_WAIT_MS}` });
    }
    return n;
  }
}
