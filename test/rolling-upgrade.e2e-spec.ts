import { PREVIOUS_RELEASE } from '../tools/rolling/previous-release';
import { ensureReleaseBuild } from '../tools/rolling/release-build';
import { formatUpgradeReport, type UpgradeReport } from '../tools/rolling/upgrade-report';
import { runUpgradeProof } from '../tools/rolling/upgrade-proof';

/** The previous release's install and build on a cold cache: about a minute here, with npm's own cache warm. Once per machine. */
const BUILD_TIMEOUT_MS = 600_000;

/** The short upgrade: two instances replaced under 16 client sessions; about 40 s here. */
const UPGRADE_TIMEOUT_MS = 120_000;

/**
 * The rolling upgrade (see `tools/rolling/upgrade-proof.ts`), shortened: two instances of the
 * previous release on one PostgreSQL and one Redis behind nginx, replaced one at a time by this
 * checkout's build with SIGTERM while 16 clients keep working and retry interrupted runs.
 * `npm run demo:rolling -- --mode upgrade` runs it with three instances and 100 clients.
 */
describe(`a rolling upgrade from ${PREVIOUS_RELEASE.version} to this build under 16 client sessions`, () => {
  let upgrade: UpgradeReport | undefined;
  beforeAll(() => ensureReleaseBuild(PREVIOUS_RELEASE), BUILD_TIMEOUT_MS);
  beforeAll(async () => {
    upgrade = await runUpgradeProof({ sessions: 16, instances: 2 });
    console.log(formatUpgradeReport(upgrade));
  }, UPGRADE_TIMEOUT_MS);
  const report = () => {
    if (!upgrade) throw new Error('the upgrade did not produce a report; see the beforeAll error');
    return upgrade;
  };

  it('runs the old instances on the previous release and the new ones on this build', () => {
    const releases = report().upgrade.instances.map(({ name, build }) => [name, build.release]);
    const previous = `${PREVIOUS_RELEASE.version} (${PREVIOUS_RELEASE.commit})`;
    expect(releases).toEqual([
      ['old-1', previous],
      ['old-2', previous],
      ['new-1', 'this checkout'],
      ['new-2', 'this checkout'],
    ]);
    expect(report().upgrade.from.nodeVersion).toMatch(
      new RegExp(`^v${PREVIOUS_RELEASE.nodeMajor}\\.`),
    );
  });

  it('never loads the native SQLite addon the previous release was installed without', () => {
    expect(report().upgrade.from.sqliteAddonBuilt).toBe(false);
  });

  it('keeps every migration the previous release applied', () => {
    expect(report().upgrade.migrationsBefore.length).toBeGreaterThan(0);
    expect(
      report().upgrade.migrationsAfter.slice(0, report().upgrade.migrationsBefore.length),
    ).toEqual(report().upgrade.migrationsBefore);
  });

  it('loses no accepted or reported message', () => {
    expect(report().audit.messagesChecked).toBeGreaterThan(0);
    expect(report().audit.messagesLost).toEqual([]);
    expect(report().audit.messagesDuplicated).toBe(0);
  });

  it('never runs a tool call again once its result was saved', () => {
    expect(report().audit.toolExecutions).toBeGreaterThan(0);
    expect(report().audit.toolExecutionsDuplicated).toEqual([]);
    expect(report().audit.stepsRepeated).toEqual([]);
  });

  it('leaves no run stuck and no thread busy', () => {
    expect(report().upgrade.resumes.runsStuck).toEqual([]);
    expect(report().audit.threadsNotIdle).toEqual([]);
    expect(report().audit.turnsIncomplete).toEqual([]);
  });

  it('resumes on a new instance runs that an old instance interrupted', () => {
    expect(report().upgrade.resumes.runsOfUnknownInstances).toBe(0);
    expect(report().upgrade.resumes.resumedByNew).toBeGreaterThan(0);
  });

  it('has every old instance exit 0 within the grace period, and passes', () => {
    for (const shutdown of report().shutdowns) {
      expect(shutdown).toMatchObject({ signal: 'SIGTERM', exitCode: 0 });
      expect(shutdown.durationMs).toBeLessThan(report().graceMs);
    }
    expect(report().tally.failures).toEqual([]);
    expect(report().problems).toEqual([]);
  });
});
