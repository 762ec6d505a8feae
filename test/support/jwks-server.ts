import {
  createHmac,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  sign,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A signing key of the test identity provider: its `kid`, algorithm and key pair. */
export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** A new RS256 (RSA 2048) or ES256 (P-256) key with a fresh `kid`. */
export function signingKey(alg: 'RS256' | 'ES256'): SigningKey {
  const pair =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid: `${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`, alg, ...pair };
}

/**
 * A compact JWT with any header and claims, signed as its header says (`RS256`, `ES256`, `HS256`
 * with `secret`, or `none` with no signature): forged tokens are made as an attacker would.
 */
export function signJwt(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  key: { privateKey?: KeyObject; secret?: Buffer | string } = {},
): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  let signature = '';
  if (header.alg === 'RS256')
    signature = b64url(sign('sha256', Buffer.from(input), key.privateKey!));
  if (header.alg === 'ES256')
    signature = b64url(
      sign('sha256', Buffer.from(input), { key: key.privateKey!, dsaEncoding: 'ieee-p1363' }),
    );
  if (header.alg === 'HS256')
    signature = b64url(createHmac('sha256', key.secret!).update(input).digest());
  return `${input}.${signature}`;
}

/** A token signed with `key`, its header naming the key's `kid`. */
export function tokenWith(key: SigningKey, claims: Record<string, unknown>): string {
  return signJwt({ alg: key.alg, typ: 'JWT', kid: key.kid }, claims, key);
}

/**
 * An identity provider's JWKS endpoint (`GET /jwks.json`) on a free loopback port, serving the
 * public halves of `keys`; `publish` replaces them, as a key rotation does. Counts its fetches.
 */
export class JwksServer {
  fetches = 0;
  private published: SigningKey[] = [];

  private constructor(private readonly server: Server) {}

  static async start(keys: SigningKey[]): Promise<JwksServer> {
    const server = createServer();
    const jwks = new JwksServer(server);
    jwks.publish(keys);
    server.on('request', (req, res) => {
      jwks.fetches++;
      const body = { keys: jwks.published.map(publicJwk) };
      res
        .writeHead(req.url === '/jwks.json' ? 200 : 404, { 'content-type': 'application/json' })
        .end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return jwks;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks.json`;
  }

  publish(keys: SigningKey[]): void {
    this.published = keys;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function publicJwk(key: SigningKey): JsonWebKey {
  return {
    ...createPublicKey(key.privateKey).export({ format: 'jwk' }),
    kid: key.kid,
    alg: key.alg,
    use: 'sig',
  };
}
