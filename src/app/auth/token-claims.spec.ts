import { issuedInFuture, lifetimeProblem } from './token-claims';

const NOW = 1_800_000_000;
const DAY = 86_400;

describe('lifetimeProblem', () => {
  it('accepts a token that lives one hour from its iat', () => {
    expect(lifetimeProblem({ iat: NOW, exp: NOW + 3600 }, DAY, NOW)).toBeUndefined();
  });

  it('accepts a token without iat that ends within the limit from now', () => {
    expect(lifetimeProblem({ exp: NOW + DAY }, DAY, NOW)).toBeUndefined();
  });

  it('refuses a token without exp', () => {
    expect(lifetimeProblem({ iat: NOW }, DAY, NOW)).toBe('exp is required');
  });

  it('refuses an exp that is not a number', () => {
    expect(lifetimeProblem({ exp: String(NOW + 60) }, DAY, NOW)).toBe('exp is required');
  });

  it('refuses a token living longer than the limit after its iat', () => {
    expect(lifetimeProblem({ iat: NOW - 10, exp: NOW - 10 + DAY + 1 }, DAY, NOW)).toMatch(
      /after iat/,
    );
  });

  it('refuses a token without iat whose exp is beyond the limit from now', () => {
    expect(lifetimeProblem({ exp: NOW + DAY + 60 }, DAY, NOW)).toMatch(/after now/);
  });

  it('refuses an iat ahead of the clock by more than the tolerance', () => {
    expect(lifetimeProblem({ iat: NOW + 60, exp: NOW + 120 }, DAY, NOW)).toBe(
      'iat is in the future',
    );
  });
});

describe('issuedInFuture', () => {
  it('accepts an iat within the tolerance ahead of the clock', () => {
    expect(issuedInFuture({ iat: NOW + 5 }, NOW)).toBeUndefined();
  });

  it('accepts a token without iat', () => {
    expect(issuedInFuture({}, NOW)).toBeUndefined();
  });

  it('refuses an iat that is not a number', () => {
    expect(issuedInFuture({ iat: 'yesterday' }, NOW)).toBe('iat is not a number');
  });
});
