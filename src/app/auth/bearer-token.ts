/** `Bearer`, in any case, one or more spaces, then one token68 and nothing after it (RFC 6750 §2.1). */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header, or `undefined` when the header is
 * missing, names another scheme, or has anything after the token (`Bearer <t> junk`).
 */
export function bearerToken(header: string | undefined): string | undefined {
  return BEARER.exec(header?.trim() ?? '')?.[1];
}
