import type { IncomingMessage, Server } from 'node:http';

/** Set on a request that asked for `100 Continue`, which the server left unanswered. */
const AWAITING_CONTINUE = Symbol('awaitingContinue');

/**
 * Takes the answer to `Expect: 100-continue` from Node, which sends `100 Continue` as soon as the
 * headers arrive: the request is served as any other, and the application sends `100 Continue`
 * when it is about to read the body (`expectsContinue`), after authentication. A client refused
 * before that gets the refusal instead and never sends its body.
 */
export function deferContinue(server: Server): void {
  server.on(
    'checkContinue',
    (request: IncomingMessage & { [AWAITING_CONTINUE]?: boolean }, response) => {
      request[AWAITING_CONTINUE] = true;
      server.emit('request', request, response);
    },
  );
}

/** Whether the request waits for `100 Continue` before sending its body (once: the answer is the caller's to send). */
export function expectsContinue(
  request: IncomingMessage & { [AWAITING_CONTINUE]?: boolean },
): boolean {
  const awaiting = request[AWAITING_CONTINUE] === true;
  request[AWAITING_CONTINUE] = false;
  return awaiting;
}
