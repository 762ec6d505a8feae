// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createPeerSetResolver } = require('./peer-set-resolver.cjs') as {
  createPeerSetResolver(
    dir: string | undefined,
    names: string[],
  ): (request: string, options: ResolverOptions) => string;
};

interface ResolverOptions {
  basedir: string;
  defaultResolver(request: string, options: ResolverOptions): string;
}

/** Jest's own resolution, reduced to where it would look: the folder it was asked to start from. */
const options: ResolverOptions = {
  basedir: '/repo/packages/lib/src',
  defaultResolver: (request, { basedir }) => `${basedir} :: ${request}`,
};

describe('the peer-set jest resolver', () => {
  const resolve = createPeerSetResolver('/cache/oldest', ['@nestjs/core', 'ai']);

  it("resolves a set's package, and its subpaths, from the set's folder", () => {
    expect(resolve('@nestjs/core', options)).toBe('/cache/oldest :: @nestjs/core');
    expect(resolve('@nestjs/core/injector/module', options)).toBe(
      '/cache/oldest :: @nestjs/core/injector/module',
    );
    expect(resolve('ai/package.json', options)).toBe('/cache/oldest :: ai/package.json');
  });

  it('leaves other packages, relative and absolute requests where jest would look', () => {
    expect(resolve('@nestjs/common', options)).toBe('/repo/packages/lib/src :: @nestjs/common');
    expect(resolve('aiohttp-ish', options)).toBe('/repo/packages/lib/src :: aiohttp-ish');
    expect(resolve('./ai', options)).toBe('/repo/packages/lib/src :: ./ai');
    expect(resolve('/abs/ai', options)).toBe('/repo/packages/lib/src :: /abs/ai');
  });

  it('changes nothing without a set', () => {
    expect(createPeerSetResolver(undefined, ['ai'])('ai', options)).toBe(
      '/repo/packages/lib/src :: ai',
    );
  });
});
