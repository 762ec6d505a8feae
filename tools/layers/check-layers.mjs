// Checks the library's folder graph against its declared layer order (`layers.json` beside
// this file): a folder may import only from folders in lower layers or from its own folder, so
// no two folders import each other. Every import counts, type-only imports and re-exports too.
// Tests are left out (`*.spec.ts`, and the `*.fixtures.ts` helpers they share, which the package
// does not ship): a test may reach its subject's neighbours and the repository's test services.
// It also fails on a cycle between files, inside a folder too.
// Usage: node tools/layers/check-layers.mjs [--graph]
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const config = JSON.parse(readFileSync(join(here, 'layers.json'), 'utf8'));
const root = resolve(here, '..', '..', config.root);

/** Every non-spec TypeScript file under `dir`. */
function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.fixtures.ts'))
      out.push(path);
  }
  return out;
}

/** The top-level folder of a file under the source root; files at the root belong to `.`. */
function folderOf(file) {
  const parts = relative(root, file).split(sep);
  return parts.length === 1 ? '.' : parts[0];
}

const layerOf = new Map();
config.layers.forEach((layer, index) => {
  for (const folder of layer.folders) layerOf.set(folder, index);
});

const edges = new Map();
const fileEdges = new Map();
const problems = [];
for (const file of sourceFiles(root)) {
  const from = folderOf(file);
  if (!layerOf.has(from))
    problems.push(`${relative(root, file)}: folder '${from}' is in no layer of layers.json`);
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = resolve(dirname(file), fileName);
    // A folder import (`'../redis'`) names the folder's index.
    const targetFile =
      existsSync(target) && statSync(target).isDirectory()
        ? join(target, 'index.ts')
        : `${target}.ts`;
    if (!fileEdges.has(file)) fileEdges.set(file, new Set());
    fileEdges.get(file).add(targetFile);
    const to = folderOf(targetFile);
    if (to === from) continue;
    const key = `${from} -> ${to}`;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(`${relative(root, file)} imports ${fileName}`);
  }
}

for (const [key, sites] of edges) {
  const [from, to] = key.split(' -> ');
  if (!(layerOf.has(from) && layerOf.has(to))) continue;
  const exception = (config.exceptions ?? []).find((e) => e.from === from && e.to === to);
  if (exception) {
    if (!exception.why) problems.push(`${key}: an exception needs a 'why'`);
    continue;
  }
  if (layerOf.get(to) >= layerOf.get(from)) {
    const how =
      layerOf.get(to) === layerOf.get(from) ? 'a folder of the same layer' : 'a higher layer';
    problems.push(
      `${key}: imports ${how} (${config.layers[layerOf.get(to)].name}), at:\n    ${sites.join('\n    ')}`,
    );
  }
}

// File cycles (inside a folder too): strongly connected components of the file graph.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
let counter = 0;
function connect(file) {
  index.set(file, counter);
  low.set(file, counter++);
  stack.push(file);
  onStack.add(file);
  for (const next of fileEdges.get(file) ?? []) {
    if (!index.has(next)) {
      connect(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
  }
  if (low.get(file) !== index.get(file)) return;
  const cycle = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    cycle.push(relative(root, member));
  } while (member !== file);
  if (cycle.length > 1) problems.push(`file cycle: ${cycle.sort().join(', ')}`);
}
for (const file of fileEdges.keys()) if (!index.has(file)) connect(file);

if (process.argv.includes('--graph')) {
  for (const key of [...edges.keys()].sort()) console.log(`${key} (${edges.get(key).length})`);
}
if (problems.length > 0) {
  console.error(`layers: ${problems.length} problem(s) in ${config.root}\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  `layers: ${edges.size} folder imports follow the ${config.layers.length} layers of ${config.root}`,
);
