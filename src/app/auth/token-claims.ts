/** Clock skew allowed between a token's issuer and this instance on `exp`, `nbf` and `iat`, in seconds. */
export const CLOCK_TOLERANCE_S = 5;

/** The time claims of a verified token, in seconds since the epoch. */
export interface TimeClaims {
  exp?: unknown;
  iat?: unknown;
}

/**
 * Why a token's `iat` cannot be trusted, or `undefined`: an `iat` ahead of this clock by more
 * than the tolerance is a token from the future (a forged or badly made one).
 */
export function issuedInFuture(
  claims: TimeClaims,
  nowS: number,
  toleranceS = CLOCK_TOLERANCE_S,
): string | undefined {
  if (claims.iat === undefined) return undefined;
  if (typeof claims.iat !== 'number' || !Number.isFinite(claims.iat)) return 'iat is not a number';
  return claims.iat > nowS + toleranceS ? 'iat is in the future' : undefined;
}

/**
 * Why an HS256 token's lifetime is refused, or `undefined`: it must carry `exp`, at most
 * `maxAgeS` after its `iat` (after now when it has none), and its `iat` must not be ahead of
 * the clock. A shared secret signs tokens anyone holding it can make, so none may live forever.
 */
export function lifetimeProblem(
  claims: TimeClaims,
  maxAgeS: number,
  nowS: number,
  toleranceS = CLOCK_TOLERANCE_S,
): string | undefined {
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return 'exp is required';
  const future = issuedInFuture(claims, nowS, toleranceS);
  if (future) return future;
  const from = typeof claims.iat === 'number' ? claims.iat : nowS;
  return claims.exp - from > maxAgeS
    ? `exp is more than ${maxAgeS} s after ${claims.iat === undefined ? 'now' : 'iat'}`
    : undefined;
}
