import { isForwarded, isLoopbackAddress, isLoopbackRequest } from './loopback-request';

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])(
    'takes %s for this machine',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(true);
    },
  );

  it.each(['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', 'fe80::1', '', undefined])(
    'takes %p for another machine',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(false);
    },
  );
});

describe('isLoopbackRequest', () => {
  it.each(['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST', '127.0.0.1'])(
    'admits a local request to host %s',
    (host) => {
      expect(isLoopbackRequest('127.0.0.1', { host })).toBe(true);
    },
  );

  it('refuses a local request that names another host, as a page whose DNS name was rebound to 127.0.0.1 sends', () => {
    expect(isLoopbackRequest('127.0.0.1', { host: 'evil.example:3000' })).toBe(false);
  });

  it('refuses a request from another machine even when it names localhost', () => {
    expect(isLoopbackRequest('10.0.0.5', { host: 'localhost:3000' })).toBe(false);
  });

  it('refuses a request without a Host header', () => {
    expect(isLoopbackRequest('127.0.0.1', {})).toBe(false);
  });

  it.each([
    ['x-forwarded-for', '8.8.8.8'],
    ['x-forwarded-host', 'localhost'],
    ['x-forwarded-proto', 'https'],
    ['forwarded', 'for=8.8.8.8'],
    ['via', '1.1 nginx'],
    ['x-real-ip', '8.8.8.8'],
  ])(
    'refuses a local request to localhost that carries %s, as a reverse proxy on this machine sends',
    (name, value) => {
      expect(isLoopbackRequest('127.0.0.1', { host: 'localhost:3000', [name]: value })).toBe(false);
    },
  );
});

describe('isForwarded', () => {
  it('takes a request with only ordinary headers for a direct one', () => {
    expect(isForwarded({ host: 'localhost', accept: '*/*', 'x-request-id': 'r1' })).toBe(false);
  });

  it('takes any X-Forwarded-* header for a proxy', () => {
    expect(isForwarded({ host: 'localhost', 'x-forwarded-port': '443' })).toBe(true);
  });
});
