/**
 * What is wrong with the ids a client received for one run, in words, or undefined when they
 * are exactly 1, 2, 3, … with no id lost or repeated.
 *
 * @example
 * idSequenceProblem([1, 2, 4]); // 'id 3 lost (got 4 after 2)'
 */
export function idSequenceProblem(ids: readonly number[]): string | undefined {
  for (let i = 0; i < ids.length; i++) {
    const expected = i + 1;
    if (ids[i] === expected) continue;
    if (ids[i] < expected) return `id ${ids[i]} repeated (after ${ids[i - 1]})`;
    return `id ${expected} lost (got ${ids[i]} after ${ids[i - 1] ?? 'nothing'})`;
  }
  return ids.length === 0 ? 'no event received' : undefined;
}
