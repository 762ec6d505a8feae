/** What replaces or joins the README's package specs. */
export interface InstallSubstitutions {
  /** The packed library, installed in place of `nest-agent-graceful-shutdown`. */
  tarball: string;
  /** Exact versions: each replaces the README's spec of that package (and must fall in its range), or is added. */
  pins: Record<string, string>;
  /** Further specs added to the install, as written. */
  extras: string[];
}

/** The flags every consumer install adds: the npm cache first, quiet output. Never `--force` or `--legacy-peer-deps`. */
export const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

/** `@scope/name@range` → `['@scope/name', 'range']`; no range → `''`. */
export function splitSpec(spec: string): [string, string] {
  const at = spec.indexOf('@', 1);
  return at < 0 ? [spec, ''] : [spec.slice(0, at), spec.slice(at + 1)];
}

/** True when `version` (exact) falls in a README range written as a major or a major.minor (`12`, `0.3`), or when there is none. */
export function withinReadmeRange(version: string, range: string): boolean {
  return range === '' || version === range || version.startsWith(`${range}.`);
}

/**
 * The README's install lines as the consumer proof runs them: in each `npm install` line the
 * library's name becomes the tarball, a pinned package gets its exact version, and the pins and
 * extras the line lacks are added, with `INSTALL_FLAGS`. Other lines (`npm pkg set …`) are kept.
 * Throws when a pin falls outside the README's range for it: the matrix and the README disagree.
 *
 * @example
 * installCommands(['npm install nest-agent-graceful-shutdown typeorm@1'], { tarball: '/t.tgz', pins: { typeorm: '1.1.1' }, extras: [] });
 * // ['npm install /t.tgz typeorm@1.1.1 --no-audit --no-fund --prefer-offline --loglevel=error']
 */
export function installCommands(
  lines: string[],
  { tarball, pins, extras }: InstallSubstitutions,
): string[] {
  return lines.map((line) => {
    const [npm, verb, ...specs] = line.split(/\s+/);
    if (verb !== 'install' && verb !== 'i') return line;
    const named = new Set<string>();
    const rewritten = specs.map((spec) => {
      const [name, range] = splitSpec(spec);
      named.add(name);
      if (name === 'nest-agent-graceful-shutdown') return tarball;
      const pin = pins[name];
      if (pin === undefined) return spec;
      if (!withinReadmeRange(pin, range))
        throw new Error(`the matrix pins ${name}@${pin}, outside the README's ${spec}`);
      return `${name}@${pin}`;
    });
    const added = Object.entries(pins)
      .filter(([name]) => !named.has(name))
      .map(([name, version]) => `${name}@${version}`);
    return [npm, verb, ...rewritten, ...added, ...extras, ...INSTALL_FLAGS].join(' ');
  });
}
