import { installCommands, INSTALL_FLAGS, splitSpec, withinReadmeRange } from './install-commands';

describe('installCommands', () => {
  const readme = [
    'npm pkg set overrides.x=$x',
    'npm install nest-agent-graceful-shutdown @nestjs/core@12 typeorm@1 rxjs',
  ];

  it('puts the tarball in place of the package name, pins what the matrix pins and adds the rest', () => {
    const [pkgSet, install] = installCommands(readme, {
      tarball: '/tmp/lib.tgz',
      pins: { '@nestjs/core': '12.5.1', ai: '7.0.1' },
      extras: ['zod'],
    });
    expect(pkgSet).toBe('npm pkg set overrides.x=$x');
    expect(install).toBe(
      [
        'npm install /tmp/lib.tgz @nestjs/core@12.5.1 typeorm@1 rxjs ai@7.0.1 zod',
        ...INSTALL_FLAGS,
      ].join(' '),
    );
  });

  it('refuses a pin outside the README range, naming both', () => {
    expect(() =>
      installCommands(readme, { tarball: '/t.tgz', pins: { typeorm: '0.3.20' }, extras: [] }),
    ).toThrow(/typeorm@0\.3\.20, outside the README's typeorm@1/);
  });

  it('never asks npm to force or to skip peer resolution', () => {
    expect(INSTALL_FLAGS.filter((flag) => /force|legacy-peer-deps/.test(flag))).toEqual([]);
  });
});

describe('splitSpec and withinReadmeRange', () => {
  it('split scoped and plain specs at the version', () => {
    expect([splitSpec('@nestjs/core@12'), splitSpec('pg'), splitSpec('typeorm@0.3')]).toEqual([
      ['@nestjs/core', '12'],
      ['pg', ''],
      ['typeorm', '0.3'],
    ]);
  });

  it('take a major or a major.minor as the range of its releases only', () => {
    expect([
      withinReadmeRange('0.3.20', '0.3'),
      withinReadmeRange('1.1.1', '1'),
      withinReadmeRange('11.0.0', '1'),
      withinReadmeRange('8.0.0', ''),
    ]).toEqual([true, true, false, true]);
  });
});
