import { tokens } from './forged-tokens';
import { runInput, tokenFor } from './http';
import { auth, get, post, type HostileRow } from './hostile-requests';

/**
 * The rows of the hostile-input table for ids and text a store would change or refuse: each is
 * refused at admission (422 naming the field, or 401 for the token's `sub`), on SQLite and
 * PostgreSQL alike, before anything is written. The table's service ran run-1 of hostile-own
 * (message own-u1, "mine") to its end before the rows.
 */

const valid = tokens.valid;
const message = (id: string, content: unknown, role = 'user') => ({ id, role, content });
const run = (threadId: string, messages: unknown[]) =>
  JSON.stringify({ ...runInput(threadId, 'run-1', []), messages });
const refused = (name: string, body: string, names: string): HostileRow => ({
  name,
  send: post(valid, body),
  status: 422,
  code: 'VALIDATION_FAILED',
  names,
});
const badSub = (name: string, sub: string): HostileRow => ({
  name: `a token whose sub is ${name}`,
  send: get('/v1/threads', auth(tokenFor(sub))),
  status: 401,
  code: 'UNAUTHORIZED',
});

export const ID_ROWS: HostileRow[] = [
  refused(
    'a message id with a space',
    run('hostile-ids', [message('u 1', 'hi')]),
    'messages[0].id',
  ),
  refused(
    'a message id of 129 characters',
    run('hostile-ids', [message('m'.repeat(129), 'hi')]),
    'messages[0].id',
  ),
  refused(
    'a message id with U+0000',
    run('hostile-ids', [message('u\u00001', 'hi')]),
    'messages[0].id',
  ),
  refused(
    'a message id with a lone surrogate',
    run('hostile-ids', [message('u\ud8001', 'hi')]),
    'messages[0].id',
  ),
  refused(
    'a message id that is a non-ASCII letter',
    run('hostile-ids', [message('ü', 'hi')]),
    'messages[0].id',
  ),
  refused('a message id ..', run('hostile-ids', [message('..', 'hi')]), 'messages[0].id'),
  refused(
    'a message text with U+0000',
    run('hostile-ids', [message('u1', 'a\u0000b')]),
    'messages[0].content',
  ),
  refused(
    'a message text with a lone high surrogate',
    run('hostile-ids', [message('u1', 'a\ud800b')]),
    'messages[0].content',
  ),
  refused(
    'a message text ending in a lone high surrogate',
    run('hostile-ids', [message('u1', 'ab\ud83d')]),
    'messages[0].content',
  ),
  refused(
    'a message text with a lone low surrogate',
    run('hostile-ids', [message('u1', '\udc00')]),
    'messages[0].content',
  ),
  refused(
    'a text part with U+0000',
    run('hostile-ids', [message('u1', [{ type: 'text', text: 'a\u0000' }])]),
    'messages[0].content',
  ),
  {
    name: 'a thread-list cursor naming a thread id with U+0000',
    send: get(
      `/v1/threads?cursor=${Buffer.from('["2025-01-02T03:04:05.000Z","t\\u0000"]').toString('base64url')}`,
      auth(valid),
    ),
    status: 400,
    code: 'INVALID_CURSOR',
    names: 'cursor',
  },
  badSub('blank', '   '),
  badSub('padded on the left', ' alice'),
  badSub('padded on the right', 'alice '),
  badSub('of 257 characters', 's'.repeat(257)),
  badSub('with U+0000', 'ali\u0000ce'),
  badSub('with a lone surrogate', 'ali\ud800ce'),
  badSub('with a line break', 'ali\nce'),
  {
    name: 'a retry of an ended run whose known message id carries other text',
    send: post(
      valid,
      JSON.stringify(runInput('hostile-own', 'run-1', [{ id: 'own-u1', content: 'not mine' }])),
    ),
    status: 409,
    code: 'RUN_ID_REUSED',
    names: 'own-u1',
  },
];
