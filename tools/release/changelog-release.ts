import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from 'dev-services';

/** The library's CHANGELOG: the packed package carries it, and its newest section names the release. */
export const LIBRARY_CHANGELOG = join(
  REPO_ROOT,
  'packages/nest-agent-graceful-shutdown/CHANGELOG.md',
);

/** A released section of the CHANGELOG: `## 1.2.3 - 2026-11-28`. */
export interface ChangelogRelease {
  version: string;
  /** The release day, `YYYY-MM-DD`. */
  date: string;
}

// Keep a Changelog's heading of a release; an `## Unreleased` heading does not match.
const RELEASE_HEADING = /^## (\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?) - (\d{4}-\d{2}-\d{2})$/m;

/**
 * The newest release a CHANGELOG names: its first `## x.y.z - YYYY-MM-DD` heading. Throws when
 * there is none, or when its date is not a day of the calendar (`2026-02-30`).
 */
export function newestRelease(changelog: string): ChangelogRelease {
  const match = RELEASE_HEADING.exec(changelog);
  if (!match) throw new Error('the CHANGELOG has no "## x.y.z - YYYY-MM-DD" heading');
  const [, version, date] = match;
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) {
    throw new Error(`the CHANGELOG's ${version} heading has no valid date: ${date}`);
  }
  return { version, date };
}

/** The newest release of the library's own CHANGELOG. */
export function libraryChangelogRelease(): ChangelogRelease {
  return newestRelease(readFileSync(LIBRARY_CHANGELOG, 'utf8'));
}
