import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { REPO_ROOT } from 'dev-services';
import { svgToPng } from './svg-png';

/** Where the README's images live, committed: `docs/images/<name>.svg|png`. */
export const PUBLISHED_IMAGES_DIR = resolve(REPO_ROOT, 'docs/images');

/** Where a tool writes the images of each run, git-ignored: `demo-output/<tool>/`. */
export function runOutputDir(tool: string): string {
  return resolve(REPO_ROOT, 'demo-output', tool);
}

/**
 * Writes charts as SVG and PNG (see {@link svgToPng}) under the same names into each of its
 * directories, created on the first write: a run's output directory, and `docs/images/` when
 * the run publishes (see {@link ChartFiles.forTool}).
 *
 * @example
 * const files = ChartFiles.forTool('rolling', process.argv.includes('--publish'));
 * files.write('rolling-sigterm', svg); // ['demo-output/rolling/rolling-sigterm.svg', …]
 */
export class ChartFiles {
  constructor(readonly dirs: readonly string[]) {}

  /** `demo-output/<tool>/`, or `outDir` instead when given, plus `docs/images/` when `publish`. */
  static forTool(tool: string, publish: boolean, outDir?: string): ChartFiles {
    const runDir = outDir ? resolve(outDir) : runOutputDir(tool);
    return new ChartFiles(publish ? [runDir, PUBLISHED_IMAGES_DIR] : [runDir]);
  }

  /** Writes `<name>.svg` and `<name>.png` into each directory; returns their paths relative to the current directory. */
  write(name: string, svg: string): string[] {
    if (!/^[a-z0-9][a-z0-9.-]*$/.test(name))
      throw new Error(
        `chart name ${JSON.stringify(name)}: use lower-case letters, digits, dots and dashes`,
      );
    const png = svgToPng(svg);
    const written: string[] = [];
    for (const dir of this.dirs) {
      mkdirSync(dir, { recursive: true });
      for (const [file, content] of [
        [`${name}.svg`, svg],
        [`${name}.png`, png],
      ] as const) {
        writeFileSync(join(dir, file), content);
        written.push(relative(process.cwd(), join(dir, file)) || file);
      }
    }
    return written;
  }

  /**
   * Copies `file`, already written into the first directory (the run's, e.g. a CPU profile),
   * into the others (`docs/images/` when the run publishes); returns the copies' paths.
   */
  copyFromFirst(file: string): string[] {
    const [first, ...others] = this.dirs;
    return others.map((dir) => {
      mkdirSync(dir, { recursive: true });
      copyFileSync(join(first, file), join(dir, file));
      return relative(process.cwd(), join(dir, file));
    });
  }
}
