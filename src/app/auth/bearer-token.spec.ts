import { bearerToken } from './bearer-token';

describe('bearerToken', () => {
  it.each(['Bearer a.b.c', 'bearer a.b.c', 'BEARER a.b.c', 'Bearer  a.b.c'])(
    'reads the token of %p',
    (header) => {
      expect(bearerToken(header)).toBe('a.b.c');
    },
  );

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    'Bearer a.b.c junk',
    'Bearer a.b.c,Bearer d.e.f',
    'Bearera.b.c',
  ])('finds no token in %p', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});
