/**
 * The release a rolling upgrade starts from (`npm run demo:rolling -- --mode upgrade`): the last
 * release before today's stack (Nest 11, TypeORM 0.3, Node 20). The next release changes only
 * this object.
 */
export const PREVIOUS_RELEASE = {
  /** The library's version in that commit's `packages/nest-agent-graceful-shutdown/package.json`. */
  version: '0.5.0',
  /** The commit of this repository the release was cut from. */
  commit: '75af8bf',
  /**
   * The Node major its instances run on: it supports 20, 22 and 24, but its better-sqlite3 12
   * aborts on Node 24.19+, and 20 is past its end of life.
   */
  nodeMajor: 22,
} as const;

/** A release of this repository, as {@link PREVIOUS_RELEASE} describes one. */
export interface ReleaseDescription {
  version: string;
  commit: string;
  nodeMajor: 22 | 24 | 26;
}
