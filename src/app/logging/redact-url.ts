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
 * The request target with the value of every credential-bearing parameter replaced by
 * `[redacted]`, for log lines: a client that puts its token in the target (`?access_token=…`)
 * must not leave it in the logs. Every form a server or a proxy may read as a parameter is
 * covered: query pairs split by `&` or `;`, matrix parameters in the path (`/v1/runs;token=…`),
 * names sent percent-encoded (once or more); the fragment, which no server needs, is dropped.
 * Other parameters are kept as sent.
 *
 * @example redactUrl('/v1/runs?access_token=eyJ…&runId=r1') // '/v1/runs?access_token=[redacted]&runId=r1'
 */
export function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const fragment = url.indexOf('#');
  const target = fragment < 0 ? url : url.slice(0, fragment);
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  return (
    redactPairs(path, PATH_PARAMETER) +
    (query < 0 ? '' : redactPairs(target.slice(query), QUERY_PARAMETER))
  );
}

/** A matrix parameter of the path: `;name=value`, the value ending at the next `/`. */
const PATH_PARAMETER = /(;)([^=&;?#/]*)=([^&;#/]*)/g;

/** A query pair after `?`, `&` or `;`: the separator, the name as sent, the value. */
const QUERY_PARAMETER = /([?&;])([^=&;?#]*)=([^&;#]*)/g;

function redactPairs(text: string, pattern: RegExp): string {
  return text.replace(pattern, (pair: string, separator: string, rawName: string) =>
    isSecretParameter(decodedName(rawName)) ? `${separator}${rawName}=${REDACTED}` : pair,
  );
}

/** A parameter name as a server reads it: `+` as a space, percent escapes decoded until none is left (at most three rounds). */
function decodedName(rawName: string): string {
  let name = rawName.replace(/\+/g, ' ');
  for (let round = 0; round < 3 && name.includes('%'); round++) {
    try {
      name = decodeURIComponent(name);
    } catch {
      // A malformed escape: judge the name as decoded so far.
      break;
    }
  }
  return name;
}
