import { freePort, waitFor } from 'dev-services';
import { api, runInput, tokenFor } from './support/http';
import { JwksServer, signingKey, signJwt, tokenWith, type SigningKey } from './support/jwks-server';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'agent-service';
const now = () => Math.floor(Date.now() / 1000);
const claims = (extra: Record<string, unknown> = {}) => ({
  sub: 'ida',
  iss: ISSUER,
  aud: AUDIENCE,
  iat: now(),
  exp: now() + 300,
  ...extra,
});

describe('bearer tokens of an OIDC provider (AUTH_JWKS_URL)', () => {
  const services = new ServiceGroup();
  const rsa = signingKey('RS256');
  const ec = signingKey('ES256');
  let jwks: JwksServer;
  let service: ServiceProcess;

  beforeAll(async () => {
    jwks = await JwksServer.start([rsa, ec]);
    service = await services.start({
      env: { AUTH_JWKS_URL: jwks.url, AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE },
    });
  });
  afterAll(async () => {
    await services.stopAll();
    await jwks.close();
  });

  /** Starts a run on a new thread with `token`; the status, and whether the thread exists afterwards. */
  async function attempt(token: string, threadId: string) {
    const started = await api(service.baseUrl, '/v1/runs', {
      method: 'POST',
      token,
      body: runInput(threadId, 'run-1', [{ id: 'u1', content: 'hi' }]),
    });
    const after = await api(service.baseUrl, `/v1/threads/${threadId}`, {
      token: tokenWith(rsa, claims()),
    });
    return { status: started.status, body: started.body, written: after.status !== 404 };
  }

  it('accepts RS256 and ES256 tokens signed by a published key, the user being their sub, beside HS256 tokens', async () => {
    for (const key of [rsa, ec]) {
      const threads = await api(service.baseUrl, '/v1/threads', {
        token: tokenWith(key, claims()),
      });
      expect(threads.status).toBe(200);
    }
    const run = await attempt(tokenWith(ec, claims()), 'jwks-ok');
    expect(run).toMatchObject({ status: 200, written: true });
    const owned = await api(service.baseUrl, '/v1/threads/jwks-ok', {
      token: tokenWith(rsa, claims({ sub: 'someone-else' })),
    });
    expect(owned.status).toBe(403);
    expect((await api(service.baseUrl, '/v1/threads', { token: tokenFor('hs-user') })).status).toBe(
      200,
    );
  });

  it('tolerates a few seconds of clock skew on exp', async () => {
    expect(
      (
        await api(service.baseUrl, '/v1/threads', {
          token: tokenWith(rsa, claims({ exp: now() - 2 })),
        })
      ).status,
    ).toBe(200);
  });

  it('honours a key rotation: a token of a newly published key is accepted once the set is fetched again', async () => {
    const next = signingKey('RS256');
    jwks.publish([rsa, ec, next]);
    await waitFor(
      async () =>
        (await api(service.baseUrl, '/v1/threads', { token: tokenWith(next, claims()) })).status ===
        200,
      'the new key to be accepted',
      15_000,
      250,
    );
  });

  const forged: Array<[string, () => string]> = [
    ['alg none', () => signJwt({ alg: 'none', typ: 'JWT' }, claims())],
    [
      'HS256 signed with the public key (algorithm confusion)',
      () =>
        signJwt({ alg: 'HS256', typ: 'JWT', kid: rsa.kid }, claims(), {
          secret: rsa.publicKey.export({ type: 'spki', format: 'pem' }),
        }),
    ],
    ['an expired token', () => tokenWith(rsa, claims({ exp: now() - 60 }))],
    ['a future nbf', () => tokenWith(rsa, claims({ nbf: now() + 60 }))],
    ['the wrong issuer', () => tokenWith(rsa, claims({ iss: 'https://evil.example.test' }))],
    ['the wrong audience', () => tokenWith(ec, claims({ aud: 'another-service' }))],
    ['no sub', () => tokenWith(rsa, claims({ sub: undefined }))],
    ['a sub that is not a string', () => tokenWith(rsa, claims({ sub: 42 }))],
    ['an unknown kid', () => tokenWith(signingKey('RS256'), claims())],
    [
      'an ES256 signature under the RSA key id',
      () => signJwt({ alg: 'ES256', typ: 'JWT', kid: rsa.kid }, claims(), ec),
    ],
    ['an iat ahead of the clock', () => tokenWith(rsa, claims({ iat: now() + 120 }))],
    [
      'a crit header',
      () => signJwt({ alg: 'RS256', typ: 'JWT', kid: rsa.kid, crit: ['exp'] }, claims(), rsa),
    ],
  ];

  it.each(forged)('answers 401 to %s and writes nothing', async (name, token) => {
    const threadId = `forged-${name.replace(/[^a-z0-9]+/gi, '-')}`;
    const result = await attempt(token(), threadId);
    expect(result).toMatchObject({ status: 401, body: { statusCode: 401 }, written: false });
  });

  it('answers 503, not 401, while the key set cannot be fetched', async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}/jwks.json`;
    const other = await services.start({ env: { AUTH_JWKS_URL: unreachable } });
    const key: SigningKey = signingKey('RS256');
    const answer = await api(other.baseUrl, '/v1/threads', { token: tokenWith(key, claims()) });
    expect(answer.status).toBe(503);
    expect(
      (await api(other.baseUrl, '/v1/threads', { token: tokenFor('still-works') })).status,
    ).toBe(200);
  });
});
