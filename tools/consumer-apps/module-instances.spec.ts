import {
  buildsLoaded,
  moduleInstanceProblems,
  moduleInstances,
  packageOf,
  type ModuleLoad,
} from './module-instances';

const APP = 'file:///app';
const at = (path: string) => `${APP}/${path}`;

describe('packageOf', () => {
  it('names the package and folder of a file under the last node_modules, scoped or not', () => {
    expect(packageOf(at('node_modules/zod/index.js'))).toEqual({
      name: 'zod',
      dir: '/app/node_modules/zod',
    });
    expect(packageOf(at('node_modules/a/node_modules/@langchain/core/dist/index.cjs'))).toEqual({
      name: '@langchain/core',
      dir: '/app/node_modules/a/node_modules/@langchain/core',
    });
  });

  it("is undefined for the app's own files and for built-in modules", () => {
    expect([packageOf(at('dist/main.js')), packageOf('node:fs')]).toEqual([undefined, undefined]);
  });
});

describe('moduleInstances', () => {
  it('counts an ES module wrapper of a CommonJS build, and a deep import of that build, as one instance', () => {
    const loads: ModuleLoad[] = [
      { parent: at('dist/main.js'), url: at('node_modules/typeorm/index.mjs'), format: 'module' },
      {
        parent: at('node_modules/typeorm/index.mjs'),
        url: at('node_modules/typeorm/index.js'),
        format: 'commonjs',
      },
      {
        parent: at('node_modules/@nestjs/typeorm/dist/a.js'),
        url: at('node_modules/typeorm/driver/b.js'),
        format: 'commonjs',
      },
    ];
    expect(moduleInstances(loads, 'typeorm')).toEqual(['/app/node_modules/typeorm as commonjs']);
  });

  it("leaves out a package's JSON files, and takes a file whose format Node left open as CommonJS", () => {
    const loads: ModuleLoad[] = [
      { parent: at('dist/main.js'), url: at('node_modules/ai/dist/index.js') },
      {
        parent: at('node_modules/lib/dist/version.cjs'),
        url: at('node_modules/ai/package.json'),
        format: 'json',
      },
    ];
    expect(moduleInstances(loads, 'ai')).toEqual(['/app/node_modules/ai as commonjs']);
  });

  it('tells two instances apart when the app and a library enter one package through its two builds', () => {
    const loads: ModuleLoad[] = [
      {
        parent: at('dist/main.js'),
        url: at('node_modules/@langchain/core/dist/index.js'),
        format: 'module',
      },
      {
        parent: at('node_modules/lib/dist/cjs/index.js'),
        url: at('node_modules/@langchain/core/dist/index.cjs'),
        format: 'commonjs',
      },
    ];
    expect(moduleInstanceProblems(loads, ['@langchain/core'])).toEqual([
      '@langchain/core: 2 instances (/app/node_modules/@langchain/core as commonjs, /app/node_modules/@langchain/core as module)',
    ]);
  });

  it('tells two instances apart when one package is loaded from two installs', () => {
    const loads: ModuleLoad[] = [
      { url: at('node_modules/zod/index.js'), format: 'module' },
      {
        parent: at('node_modules/ai/dist/index.js'),
        url: at('node_modules/ai/node_modules/zod/index.js'),
        format: 'module',
      },
    ];
    expect(moduleInstances(loads, 'zod')).toHaveLength(2);
  });

  it('reports a package that was not loaded at all, so a proof cannot pass on a peer it never loaded', () => {
    expect(moduleInstanceProblems([], ['openai'])).toEqual(['openai: 0 instances']);
  });
});

describe('buildsLoaded', () => {
  it("lists the build folders a package's files were loaded from", () => {
    const loads: ModuleLoad[] = [
      { url: at('node_modules/lib/dist/esm/index.js'), format: 'module' },
      {
        parent: at('node_modules/lib/dist/esm/ai/installed.js'),
        url: at('node_modules/lib/dist/esm/ai/version.cjs'),
        format: 'commonjs',
      },
    ];
    expect(buildsLoaded(loads, 'lib')).toEqual(['dist/esm']);
  });
});
