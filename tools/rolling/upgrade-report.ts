import { relative } from 'node:path';
import type { ServiceBuild } from '../bench/service-build';
import { REPO_ROOT } from 'dev-services';
import { formatProofReport, type ReportRow } from './proof-report';
import type { ReleaseResumes } from './release-resumes';
import { reportParts, type RollingReport } from './rolling-report';

/** What a rolling upgrade adds to a SIGTERM rollout's facts: the two releases and what crossed between them. */
export interface UpgradeFacts {
  /** The release the old instances ran, and whether its better-sqlite3 addon was built. */
  from: ServiceBuild & { sqliteAddonBuilt: boolean };
  /** The release the new instances ran: this checkout's build. */
  to: ServiceBuild;
  /** Every instance, in the order they started, with the release it ran. */
  instances: { name: string; build: ServiceBuild }[];
  /** The migrations applied once the old release's instances served (their own, run at their boot). */
  migrationsBefore: string[];
  /** The migrations applied at the end: the new ones ran at the first new instance's boot, while old ones served. */
  migrationsAfter: string[];
  resumes: ReleaseResumes;
}

/** A SIGTERM rollout's report, from one release to the next. */
export interface UpgradeReport extends RollingReport {
  upgrade: UpgradeFacts;
}

/**
 * Judges a rolling upgrade: the SIGTERM rollout's promises (`rolling`, judged already), plus no
 * run left `running`, every run attributed to an instance, each instance on the release its name
 * says, and at least one run interrupted by an old instance and resumed by a new one, without
 * which the proof would not have carried a run across releases.
 */
export function judgeUpgrade(rolling: RollingReport, upgrade: UpgradeFacts): UpgradeReport {
  const problems = [...rolling.problems];
  const { resumes } = upgrade;
  if (resumes.runsStuck.length)
    problems.push(
      `runs stuck in running: ${resumes.runsStuck.length} (${resumes.runsStuck.slice(0, 5).join('; ')})`,
    );
  if (resumes.runsOfUnknownInstances)
    problems.push(
      `runs recorded by no instance of this cluster: ${resumes.runsOfUnknownInstances}`,
    );
  for (const { name, build } of upgrade.instances) {
    const expected = name.startsWith('old-') ? upgrade.from : upgrade.to;
    if (build.release !== expected.release)
      problems.push(`${name} ran ${build.release}, not ${expected.release}`);
  }
  if (resumes.resumedByNew === 0)
    problems.push(
      'no run interrupted by an old instance was resumed by a new one: no run crossed the releases',
    );
  return { ...rolling, upgrade, problems, passed: problems.length === 0 };
}

/** The migrations the new release applied, as the report says it. */
function migrationsRun({ from, migrationsBefore, migrationsAfter }: UpgradeFacts): string {
  const added = migrationsAfter.filter((name) => !migrationsBefore.includes(name));
  if (added.length) return `${added.length}: ${added.join(', ')}`;
  return `none pending (the ${migrationsBefore.length} of ${from.release.split(' ')[0]} are all it has)`;
}

/** The SIGTERM report (see `formatReport`) with the releases: a line per instance, the migrations, the runs resumed across releases. */
export function formatUpgradeReport(report: UpgradeReport): string {
  const { heading, rows, sections } = reportParts(report);
  const { upgrade } = report;
  const { resumes, from, to } = upgrade;
  const perInstance: ReportRow[] = upgrade.instances.map(({ name, build }) => [
    `  ${name} ran`,
    `${build.release}, Node ${build.nodeVersion}, ${resumes.runsByInstance[name] ?? 0} runs`,
  ]);
  const crossings: ReportRow[] = [
    ['runs interrupted by an old instance (store)', String(resumes.interruptedByOld)],
    [
      'interrupted by an old instance, resumed by a new one',
      `${resumes.resumedByNew} (must be > 0)`,
    ],
    ['interrupted by an old instance, resumed by an old one', String(resumes.resumedByOld)],
    [
      'runs stuck (still running) / threads not idle',
      `${resumes.runsStuck.length} / ${report.audit.threadsNotIdle.length} (must be 0)`,
    ],
    ['migrations the new release ran at boot', migrationsRun(upgrade)],
    [
      'better-sqlite3 addon of the old release',
      from.sqliteAddonBuilt ? 'built' : 'not built (never loaded: a load would throw)',
    ],
  ];
  const after = (label: string) => rows.findIndex(([l]) => l === label) + 1;
  const table = [...rows];
  table.splice(after('runs resumed'), 0, ...crossings);
  table.splice(after('instances replaced'), 0, ...perInstance);
  const title = [
    `rolling upgrade proof, ${from.release} to ${to.release}, SIGTERM mode`,
    `old release ${from.release} on Node ${from.nodeVersion} (${relative(REPO_ROOT, from.dir)}); new release ${to.release} on Node ${to.nodeVersion}`,
  ];
  return formatProofReport([...title, ...heading.slice(1)], table, report, sections);
}
