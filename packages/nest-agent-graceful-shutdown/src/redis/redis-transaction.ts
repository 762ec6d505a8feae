/** Throws the first failure of a MULTI, which reports failed commands in its results rather than by rejecting. */
export function throwOnFailure(results: [Error | null, unknown][] | null): void {
  if (!results) throw new Error('transaction aborted');
  const failure = results.find(([error]) => error)?.[0];
  if (failure) throw failure;
}
