import type { TokenStore } from './token-store';

/** `fetch` as the page's requests use it: with the current token, relative to the page. */
export type AuthFetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` that sends `Authorization: Bearer <token>` with the token of the moment (so a run
 * that reconnects after a restart uses the new one). When the service answers 401 to a dev
 * token, it fetches the dev token again (a restarted service made a new secret) and, if that
 * brought a new one, sends the request once more.
 */
export function createAuthFetch(tokens: TokenStore): AuthFetch {
  const send = (input: string, init: RequestInit | undefined, token: string) => {
    const headers = new Headers(init?.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return async (input, init) => {
    const used = tokens.value;
    const response = await send(input, init, used);
    if (response.status !== 401 || tokens.source !== 'dev') return response;
    if (!(await tokens.loadDevToken()) || tokens.value === used) return response;
    return send(input, init, tokens.value);
  };
}
