import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from 'dev-services';
import { libraryChangelogRelease, newestRelease } from './changelog-release';

const LIBRARY_MANIFEST = join(REPO_ROOT, 'packages/nest-agent-graceful-shutdown/package.json');

describe('the library release', () => {
  it("has the version of the CHANGELOG's newest released section", () => {
    const { version } = JSON.parse(readFileSync(LIBRARY_MANIFEST, 'utf8')) as { version: string };
    expect(version).toBe(libraryChangelogRelease().version);
  });

  it("dates the CHANGELOG's newest released section with a day of the calendar", () => {
    const { date } = libraryChangelogRelease();
    expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(date);
  });
});

describe('newestRelease', () => {
  it('takes the first release heading, past an Unreleased section', () => {
    const changelog =
      '# Changelog\n\n## Unreleased\n\n- next\n\n## 1.2.0 - 2026-11-28\n\n## 1.1.0 - 2026-10-01\n';
    expect(newestRelease(changelog)).toEqual({ version: '1.2.0', date: '2026-11-28' });
  });

  it('refuses a CHANGELOG without a release heading', () => {
    expect(() => newestRelease('# Changelog\n\n## Unreleased\n')).toThrow(
      'no "## x.y.z - YYYY-MM-DD" heading',
    );
  });

  it('refuses a heading whose date is not a day of the calendar', () => {
    expect(() => newestRelease('## 1.0.0 - 2026-02-30\n')).toThrow('no valid date: 2026-02-30');
  });
});
