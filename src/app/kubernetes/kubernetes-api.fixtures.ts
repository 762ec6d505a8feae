import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpdaterTimers } from './pod-deletion-cost.updater';

/** One call the stand-in API received. */
export interface ReceivedCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the stand-in answers a call with: a status and a body (JSON), or no answer at all. */
export type Answer = { status: number; body?: unknown } | 'no answer';

/**
 * A local stand-in for the Kubernetes API's pod patch: records every call and answers each with
 * the next of `answers` (then 200 with the patched pod). Over HTTPS with `tls`.
 */
export class PodPatchServer {
  readonly calls: ReceivedCall[] = [];
  private readonly server: Server;

  constructor(
    private readonly answers: Answer[] = [],
    tls?: { key: Buffer; cert: Buffer },
  ) {
    const handler = (request: IncomingMessage, response: ServerResponse) =>
      void this.answer(request, response);
    this.server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
  }

  /** Listens on a free loopback port; resolves with its base URL. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `${'cert' in this.server ? 'https' : 'http'}://127.0.0.1:${port}`;
  }

  /** Adds answers for the calls to come. */
  answerNext(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    this.calls.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body,
    });
    const next = this.answers.shift() ?? {
      status: 200,
      body: { kind: 'Pod', ...(JSON.parse(body) as object) },
    };
    if (next === 'no answer') return;
    const { status, body: answer } = next;
    response
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify(answer ?? {}));
  }
}

/** A service account directory as Kubernetes mounts it: token, namespace and (with TLS) ca.crt. */
export function serviceAccountDir(
  token: string,
  namespace = 'agents',
): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'serviceaccount-'));
  writeFileSync(join(dir, 'token'), `${token}\n`);
  writeFileSync(join(dir, 'namespace'), namespace);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A self-signed certificate for 127.0.0.1 (openssl), which is its own CA. */
export function selfSignedCertificate(
  dir: string,
  name = 'api',
): { key: Buffer; cert: Buffer; certFile: string } {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
    ].concat(['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile]),
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile };
}

/** Timers that wait for nothing: each scheduled step runs when the test calls {@link StepTimers.next}. */
export class StepTimers implements UpdaterTimers {
  /** The delay of every wait asked for, in order, in ms. */
  readonly delays: number[] = [];
  private pending?: () => Promise<void>;

  setTimeout(callback: () => Promise<void>, ms: number): unknown {
    this.delays.push(ms);
    this.pending = callback;
    return callback;
  }

  clearTimeout(handle: unknown): void {
    if (handle === this.pending) this.pending = undefined;
  }

  /** True while a step waits to run. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /** Runs the step that waits, as if its delay had passed, and resolves when it is done. */
  async next(): Promise<void> {
    const step = this.pending;
    if (!step) throw new Error('no step is scheduled');
    this.pending = undefined;
    await step();
  }
}
