/**
 * `make`, shared: concurrent and later calls get the one promise it made, until that promise
 * rejects; then it is forgotten, so a later call tries again (e.g. once the registry or apt is
 * reachable again).
 *
 * @example
 * export const ensurePromtool = sharedUntilFailure(install);
 */
export function sharedUntilFailure<T>(make: () => Promise<T>): () => Promise<T> {
  let shared: Promise<T> | undefined;
  return () =>
    (shared ??= make().catch((error: unknown) => {
      shared = undefined;
      throw error;
    }));
}
