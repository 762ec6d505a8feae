import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidWaitError } from 'nest-agent-graceful-shutdown';

/** Longest a cancel may wait for the run to stop, in milliseconds. */
export const MAX_CANCEL_WAIT_MS = 30_000;

/** Parses the optional `waitMs` query parameter: an integer from 0 to 30000; else 400 `INVALID_WAIT`. */
@Injectable()
export class WaitMsPipe implements PipeTransform<unknown, number | undefined> {
  transform(value: unknown): number | undefined {
    if (value === undefined) return undefined;
    const n = typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : NaN;
    if (!(n >= 0 && n <= MAX_CANCEL_WAIT_MS)) throw new InvalidWaitError(MAX_CANCEL_WAIT_MS);
    return n;
  }
}
