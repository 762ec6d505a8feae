/** What a redacted query value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Query parameters that carry credentials in the wild (OAuth 2.0 and OIDC, API keys, signed
 * links). Compared without case and without `-`/`_`, so `Access-Token` and `api_key` match too.
 */
const SECRET_PARAMETERS = new Set(
  [
    'access_token',
    'token',
    'id_token',
    'refresh_token',
    'code',
    'client_secret',
    'api_key',
    'apikey',
    'key',
    'secret',
    'password',
    'passwd',
    'auth',
    'authorization',
    'jwt',
    'session',
    'sessionid',
    'signature',
    'sig',
    'x-amz-signature',
    'x-amz-credential',
    'x-amz-security-token',
  ].map(normalize),
);

function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Whether a query parameter of this name carries a credential. */
export function isSecretParameter(name: string): boolean {
  return SECRET_PARAMETERS.has(normalize(name)) || /token|secret|passw/i.test(name);
}

/**
 * The request target with the value of every credential-bearing query parameter replaced by
 * `[redacted]`, for log lines: a client that puts its token in the query string (`?access_token=…`)
 * must not leave it in the logs. Other parameters are kept as sent.
 *
 * @example redactUrl('/v1/runs?access_token=eyJ…&runId=r1') // '/v1/runs?access_token=[redacted]&runId=r1'
 */
export function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const start = url.indexOf('?');
  if (start < 0) return url;
  const fragment = url.indexOf('#', start);
  const query = url.slice(start + 1, fragment < 0 ? undefined : fragment);
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=');
    const rawName = equals < 0 ? part : part.slice(0, equals);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: judge the name as sent.
    }
    return isSecretParameter(name) && equals >= 0 ? `${rawName}=${REDACTED}` : part;
  });
  return `${url.slice(0, start)}?${parts.join('&')}`;
}
