import { request, type Agent } from 'node:http';

/** A JSON response: the status and the parsed body (the raw text when it is not JSON). */
export interface JsonResponse {
  status: number;
  body: unknown;
}

/**
 * GETs `url` through `agent` with node:http rather than fetch, so every request of the
 * benchmark shares one connection policy (no pooling limits, no keep-alive). Fails after
 * `timeoutMs` so a wedged service cannot stall a poll loop.
 */
export function getJson(url: string, agent: Agent, timeoutMs = 5_000): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', reject);
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text for the error message
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} took longer than ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
