import { redactUrl, REDACTED } from './redact-url';

describe('redactUrl', () => {
  it('keeps a path without a query as it is', () => {
    expect(redactUrl('/v1/threads/t1')).toBe('/v1/threads/t1');
  });

  it.each([
    'access_token',
    'token',
    'id_token',
    'refresh_token',
    'code',
    'client_secret',
    'api_key',
    'apikey',
    'Access-Token',
    'X-Amz-Signature',
    'my_token',
  ])('replaces the value of %s', (name) => {
    expect(redactUrl(`/v1/runs?${name}=s3cr3t.value&runId=r1`)).toBe(
      `/v1/runs?${name}=${REDACTED}&runId=r1`,
    );
  });

  it('recognises a parameter name sent percent-encoded', () => {
    expect(redactUrl('/x?access%5Ftoken=s3cr3t')).toBe(`/x?access%5Ftoken=${REDACTED}`);
  });

  it('keeps ordinary parameters and drops the fragment', () => {
    expect(redactUrl('/v1/runs/t1/cancel?runId=r1&waitMs=100#frag')).toBe(
      '/v1/runs/t1/cancel?runId=r1&waitMs=100',
    );
  });

  it('redacts every occurrence of a repeated parameter', () => {
    expect(redactUrl('/x?token=a&token=b')).toBe(`/x?token=${REDACTED}&token=${REDACTED}`);
  });

  it('survives a malformed escape in a parameter name', () => {
    expect(redactUrl('/x?%E0%A4%A=1&token=z')).toBe(`/x?%E0%A4%A=1&token=${REDACTED}`);
  });

  it('redacts pairs split by semicolons, as some servers and proxies read them', () => {
    expect(redactUrl('/v1/runs?runId=r1;access_token=s3cr3t')).toBe(
      `/v1/runs?runId=r1;access_token=${REDACTED}`,
    );
  });

  it('redacts matrix parameters in the path', () => {
    expect(redactUrl('/v1/threads;token=s3cr3t/t1')).toBe(`/v1/threads;token=${REDACTED}/t1`);
  });

  it('drops a fragment sent in the target, with or without a query', () => {
    expect(redactUrl('/v1/threads#access_token=s3cr3t')).toBe('/v1/threads');
  });

  it('recognises a name percent-encoded twice', () => {
    expect(redactUrl('/x?access%255Ftoken=s3cr3t')).toBe(`/x?access%255Ftoken=${REDACTED}`);
  });

  it('passes undefined through', () => {
    expect(redactUrl(undefined)).toBeUndefined();
  });
});
