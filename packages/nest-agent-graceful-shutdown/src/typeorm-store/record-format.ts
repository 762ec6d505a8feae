import { LessThanOrEqual, type FindOptionsWhere } from 'typeorm';
import type { ThreadEntity } from './entities/thread.entity.js';

/**
 * The format of a thread's durable records (its messages, interrupt marker, run state, tool-call
 * records and event log) that this release writes and reads. A release that changes how any of
 * them reads raises it; every release leaves alone a thread whose format is newer than its own,
 * so a rollback never has the previous release misread what the next one wrote. Version 1 is
 * the format of 0.5 and 0.6: rows written before the column existed hold it by default.
 */
export const RECORD_FORMAT_VERSION = 1;

/** Find condition for the threads whose records this release understands. */
export const understoodFormatWhere: FindOptionsWhere<ThreadEntity> = {
  formatVersion: LessThanOrEqual(RECORD_FORMAT_VERSION),
};

/** Whether this release understands `thread`'s records and may start, resume or repair its runs. */
export function understandsFormat(thread: Pick<ThreadEntity, 'formatVersion'>): boolean {
  return thread.formatVersion <= RECORD_FORMAT_VERSION;
}
