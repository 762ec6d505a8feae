import { JwtService } from '@nestjs/jwt';

/** The secret the spawned services are started with. */
export const TEST_SECRET = 'test-secret-do-not-use-in-production';

/** A bearer token for `sub`, signed with `secret`. */
export function tokenFor(
  sub: string,
  secret = TEST_SECRET,
  options: { issuedSecondsAgo?: number } = {},
): string {
  const payload = options.issuedSecondsAgo
    ? { sub, iat: Math.floor(Date.now() / 1000) - options.issuedSecondsAgo }
    : { sub };
  return new JwtService({ secret }).sign(payload, { algorithm: 'HS256', expiresIn: '1h' });
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A JSON request; `body` may be a string to send it verbatim. */
export async function api<T = any>(
  baseUrl: string,
  path: string,
  options: {
    method?: string;
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: an SSE stream or plain text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** A minimal AG-UI run input. */
export function runInput(
  threadId: string,
  runId: string,
  messages: Array<{ id: string; content: string; role?: string }>,
) {
  return {
    threadId,
    runId,
    state: {},
    tools: [],
    context: [],
    forwardedProps: {},
    messages: messages.map((m) => ({ id: m.id, role: m.role ?? 'user', content: m.content })),
  };
}
