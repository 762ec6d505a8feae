import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import {
  dockerStages,
  execForm,
  lastInstruction,
  type DockerStage,
} from './support/dockerfile-stages';
import { REPO_ROOT } from './support/kubernetes-cli';

// No Docker engine here: the image cannot be built, so the Dockerfile is linted and its structure checked.

/** LSP diagnostic severities: 1 error, 2 warning. */
const ERROR_OR_WARNING = new Set([1, 2]);

const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
const stages = dockerStages(dockerfile);
const finalStage = stages[stages.length - 1];

function runs(stage: DockerStage): string[] {
  return stage.instructions
    .filter((instruction) => instruction.keyword === 'RUN')
    .map((instruction) => instruction.args);
}

/** The stage a `COPY --from=<name>` of the final stage reads `path` from. */
function sourceStageOf(path: string): DockerStage {
  const copy = finalStage.instructions.find(
    (i) => i.keyword === 'COPY' && i.args.startsWith('--from=') && i.args.split(' ')[1] === path,
  );
  if (!copy) throw new Error(`the final stage copies no ${path} from another stage`);
  const name = /^--from=(\S+)/.exec(copy.args)![1];
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`COPY --from=${name}: no stage of that name`);
  return stage;
}

/** The .dockerignore patterns, comments left out. */
function dockerignorePatterns(): string[] {
  return readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

describe('Dockerfile', () => {
  it('has no error or warning from the dockerfile-utils linter', () => {
    const problems = validate(dockerfile).filter((diagnostic) =>
      ERROR_OR_WARNING.has(diagnostic.severity ?? 1),
    );
    expect(problems.map((p) => `line ${p.range.start.line + 1}: ${p.message}`)).toEqual([]);
  });

  it('is linted by a linter that does report broken instructions', () => {
    const problems = validate('FROM node:20-bookworm-slim\nEXPOSE not-a-port\nCMD ["node"\n');
    expect(problems.filter((diagnostic) => diagnostic.severity === 1).length).toBeGreaterThan(0);
  });

  it('builds in one stage and runs from another', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(
      stages.some((stage) =>
        runs(stage).some((run) => /\bnpm ci\b/.test(run) && !/--omit=dev/.test(run)),
      ),
    ).toBe(true);
    expect(stages.some((stage) => runs(stage).some((run) => /\bnest build\b/.test(run)))).toBe(
      true,
    );
  });

  it('bundles the console page into dist, which the runtime image copies', () => {
    const build = sourceStageOf('/app/dist');
    expect(build.instructions.some((i) => i.keyword === 'COPY' && /^console\s/.test(i.args))).toBe(
      true,
    );
    expect(
      runs(build).some(
        (run) =>
          /\bnpm run build:console\b/.test(run) &&
          run.indexOf('build:console') < run.indexOf('npm prune'),
      ),
    ).toBe(true);
  });

  it('runs from a pinned slim image of the Node the project runs on (its `node` devDependency)', () => {
    const { devDependencies } = JSON.parse(
      readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'),
    ) as { devDependencies: Record<string, string> };
    expect(finalStage.image).toBe(`node:${devDependencies.node}-bookworm-slim`);
    for (const stage of stages) expect(stage.image).toBe(finalStage.image);
  });

  it('ships production dependencies only: the node_modules it copies were pruned of dev dependencies', () => {
    // Each shell command of the stage that builds node_modules, in order.
    const commands = runs(sourceStageOf('/app/node_modules')).flatMap((run) =>
      run.split(/&&|;/).map((command) => command.trim()),
    );
    const lastIndex = (test: (command: string) => boolean) =>
      commands.reduce((last, command, index) => (test(command) ? index : last), -1);
    const lastOmitDev = lastIndex((command) => /^npm (prune|ci)\b.*--omit=dev/.test(command));
    const lastFullInstall = lastIndex(
      (command) => /^npm (ci|install|i)\b/.test(command) && !/--omit=dev/.test(command),
    );
    expect(lastOmitDev).toBeGreaterThan(lastFullInstall);
    expect(runs(finalStage).some((run) => /\bnpm\b/.test(run))).toBe(false);
  });

  it('starts node under tini with exec-form ENTRYPOINT and CMD, never under npm', () => {
    expect(execForm(lastInstruction(finalStage, 'ENTRYPOINT'))).toEqual(['/usr/bin/tini', '--']);
    const cmd = execForm(lastInstruction(finalStage, 'CMD'));
    expect(cmd).toEqual(['node', 'dist/main.js']);
  });

  it('installs tini from apt without recommended packages and removes the package lists', () => {
    const install = runs(finalStage).find((run) => /apt-get install/.test(run));
    expect(install).toMatch(/apt-get install -y --no-install-recommends tini/);
    expect(install).toMatch(/rm -rf \/var\/lib\/apt\/lists\/\*/);
  });

  it('runs as the numeric non-root user 1000', () => {
    expect(lastInstruction(finalStage, 'USER')?.args).toBe('1000:1000');
    const afterUser = finalStage.instructions.slice(
      finalStage.instructions.indexOf(lastInstruction(finalStage, 'USER')!) + 1,
    );
    expect(
      afterUser.map((i) => i.keyword).filter((keyword) => keyword === 'RUN' || keyword === 'USER'),
    ).toEqual([]);
  });

  it('sets NODE_ENV=production, DATA_DIR=/data, and exposes port 3000', () => {
    const env = finalStage.instructions
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/\bNODE_ENV=production\b/);
    expect(env).toMatch(/\bDATA_DIR=\/data\b/);
    expect(env).toMatch(/\bPORT=3000\b/);
    expect(lastInstruction(finalStage, 'EXPOSE')?.args).toBe('3000');
  });

  it('makes /data writable for user 1000, the only place besides /tmp the service writes', () => {
    expect(
      runs(finalStage).some(
        (run) => /mkdir (-p )?\/data/.test(run) && /chown 1000:1000 \/data/.test(run),
      ),
    ).toBe(true);
  });

  it('keeps local builds, installs, data, git history and tests out of the build context', () => {
    expect(dockerignorePatterns()).toEqual(
      expect.arrayContaining(['node_modules', 'dist', 'data', '.git', 'test']),
    );
  });

  it('copies into the build only files that exist and that .dockerignore lets through', () => {
    const ignored = new Set(dockerignorePatterns());
    const sources = stages
      .flatMap((stage) => stage.instructions)
      .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from='))
      .flatMap((i) => i.args.split(' ').slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect([source, existsSync(join(REPO_ROOT, source))]).toEqual([source, true]);
      expect([source, ignored.has(source)]).toEqual([source, false]);
    }
  });
});
