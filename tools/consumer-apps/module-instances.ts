import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One resolution a process made, as the consumer apps' preload (`module-ledger.cjs`) records it. */
export interface ModuleLoad {
  /** The file that asked; none for the entry point. */
  parent?: string;
  /** The file it resolved to. */
  url: string;
  /** The format Node loaded that file in: `module`, `commonjs`, `json`… */
  format?: string;
}

/** An installed package a file belongs to: its name and its folder (under the last `node_modules`). */
export interface InstalledPackage {
  name: string;
  dir: string;
}

const NODE_MODULES = '/node_modules/';

/** The installed package that holds the file at `url`, or `undefined` for a file outside any `node_modules`. */
export function packageOf(url: string): InstalledPackage | undefined {
  if (!url.startsWith('file:')) return undefined;
  const path = fileURLToPath(url);
  const at = path.lastIndexOf(NODE_MODULES);
  if (at < 0) return undefined;
  const [first, second] = path.slice(at + NODE_MODULES.length).split('/');
  const name = first.startsWith('@') ? `${first}/${second}` : first;
  return { name, dir: `${path.slice(0, at + NODE_MODULES.length)}${name}` };
}

/** The module formats that make instances: a JSON file or a built-in holds no state to split. */
const CODE_FORMATS = new Set(['module', 'commonjs']);

/**
 * The format a file was loaded in. Node leaves it open (`undefined`) when `require` loads a `.js`
 * file of a package without `"type"`: its CommonJS loader then runs the file as CommonJS.
 */
function formatOf(load: ModuleLoad): string {
  return load.format ?? 'commonjs';
}

/**
 * The module instances of package `name` a process loaded: each install folder and format in
 * which code outside that package entered it. What makes two instances is the outside world
 * reaching one package through two builds (`@langchain/core`'s ESM from the app, its CommonJS
 * from a library) or through two installs. A package's own files may mix formats: a file whose
 * every import inside its package is of the other format is a wrapper of that build (TypeORM's
 * `index.mjs` re-exports its CommonJS), so entering it counts as entering that build.
 *
 * @example
 * moduleInstances(loads, 'zod'); // ['/app/node_modules/zod as module']
 */
export function moduleInstances(loads: readonly ModuleLoad[], name: string): string[] {
  const own = loads.filter(
    (load) => packageOf(load.url)?.name === name && CODE_FORMATS.has(formatOf(load)),
  );
  const formats = new Map(own.map((load) => [load.url, formatOf(load)]));
  const buildOf = (url: string): string => {
    const inner = own.filter((load) => load.parent === url).map(formatOf);
    return inner.length > 0 && inner.every((format) => format !== formats.get(url))
      ? inner[0]
      : formats.get(url)!;
  };
  const entered = own.flatMap((load) => {
    const dir = packageOf(load.url)!.dir;
    return load.parent && packageOf(load.parent)?.dir === dir
      ? []
      : [`${dir} as ${buildOf(load.url)}`];
  });
  return [...new Set(entered)].sort();
}

/** One line per package of `names` that the process did not load exactly once: none means each is one instance. */
export function moduleInstanceProblems(
  loads: readonly ModuleLoad[],
  names: readonly string[],
): string[] {
  return names.flatMap((name) => {
    const instances = moduleInstances(loads, name);
    return instances.length === 1
      ? []
      : [
          `${name}: ${instances.length} instances${instances.length ? ` (${instances.join(', ')})` : ''}`,
        ];
  });
}

/** The build folders (`dist/esm`, `dist/cjs`) of package `name` that the process loaded files from. */
export function buildsLoaded(loads: readonly ModuleLoad[], name: string): string[] {
  const builds = loads.flatMap((load) => {
    const target = packageOf(load.url);
    if (target?.name !== name) return [];
    const inside = fileURLToPath(load.url).slice(target.dir.length + 1);
    return [inside.split('/').slice(0, 2).join('/')];
  });
  return [...new Set(builds)].sort();
}

/** The resolutions a process wrote to its ledger file (see `module-ledger.cjs`). */
export function readModuleLedger(file: string): ModuleLoad[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ModuleLoad);
}
