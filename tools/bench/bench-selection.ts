/** The sections of `npm run bench`, in the order they run. */
export const SECTION_KEYS = [
  'a',
  'b',
  'c',
  'd',
  'e',
  'f',
  'g',
  'h',
  'i',
  'j',
  'k',
  'l',
  'm',
  'n',
] as const;

/** One section's letter, as its table is titled: `(h) run event log` is `h`. */
export type SectionKey = (typeof SECTION_KEYS)[number];

/**
 * The sections asked for on the command line: `--only h,i,j,k` (or `--only=h,i`); every section
 * without it. An unknown letter is an error naming the known ones, not a silently empty run.
 *
 * @example
 * selectedSections(['--only', 'j,k']); // ['j', 'k']
 */
export function selectedSections(argv: readonly string[]): SectionKey[] {
  const at = argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
  if (at < 0) return [...SECTION_KEYS];
  const value = argv[at].startsWith('--only=') ? argv[at].slice('--only='.length) : argv[at + 1];
  const asked = (value ?? '')
    .split(',')
    .map((key) => key.trim().toLowerCase())
    .filter(Boolean);
  const unknown = asked.filter((key) => !(SECTION_KEYS as readonly string[]).includes(key));
  if (asked.length === 0 || unknown.length) {
    throw new Error(
      `--only takes a comma-separated list of sections out of ${SECTION_KEYS.join(',')}${unknown.length ? `; unknown: ${unknown.join(',')}` : ''}`,
    );
  }
  return SECTION_KEYS.filter((key) => asked.includes(key));
}
