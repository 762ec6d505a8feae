/** A consumer-proof check that did not hold: its message says what was expected and what came. */
export class ProofCheckError extends Error {
  override readonly name = 'ProofCheckError';
}

/**
 * Throws unless `actual` and `expected` have the same JSON. Compared as JSON on purpose: values
 * from `fetch` and from jest's sandbox belong to different realms, which `node:assert`'s strict
 * equality tells apart.
 */
export function same(actual: unknown, expected: unknown, what: string): void {
  const [got, want] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (got !== want) throw new ProofCheckError(`${what}: expected ${want}, got ${got}`);
}

/** Throws `what` unless `condition` holds. */
export function check(condition: boolean, what: string): void {
  if (!condition) throw new ProofCheckError(what);
}
