import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readmeImportedPackages, readmeTypeScriptBlocks, writeReadmeBlocks } from './readme-blocks';

describe('readmeTypeScriptBlocks', () => {
  const readme = [
    '# x',
    '```bash',
    'npm install x',
    '```',
    '```ts',
    '// support-agent.ts: the agent',
    "import { z } from 'zod';",
    'export const agent = z;',
    '```',
    '```typescript',
    "import { agent } from './support-agent.js';",
    'export const again = agent;',
    '```',
  ].join('\n');

  it('returns each TypeScript block unchanged, with the line of its fence', () => {
    const blocks = readmeTypeScriptBlocks(readme);
    expect(blocks.map(({ line }) => line)).toEqual([5, 10]);
    expect(blocks[0].source).toBe(
      "// support-agent.ts: the agent\nimport { z } from 'zod';\nexport const agent = z;\n",
    );
  });

  it('names a block by the file its first comment names, else by its line', () => {
    expect(readmeTypeScriptBlocks(readme).map(({ file }) => file)).toEqual([
      'support-agent.ts',
      'block-10.ts',
    ]);
  });

  it('keeps a named folder and drops a leading src/', () => {
    const blocks = readmeTypeScriptBlocks('```ts\n// src/chat/chat.controller.ts\nexport {};\n```');
    expect(blocks.map(({ file }) => file)).toEqual([join('chat', 'chat.controller.ts')]);
  });

  it('fails, naming both lines, when two blocks name the same file', () => {
    expect(() => readmeTypeScriptBlocks('```ts\n// a.ts\n```\n```ts\n// a.ts\n```')).toThrow(
      /lines 1 and 4 both name a\.ts/,
    );
  });

  it('refuses a named file outside the folder the blocks are written to', () => {
    expect(() => readmeTypeScriptBlocks('```ts\n// ../escape.ts\n```')).toThrow(/outside/);
  });
});

describe('readmeImportedPackages', () => {
  it('lists the bare packages imported, without subpaths, Node modules, relative files or the library', () => {
    const readme = [
      '```ts',
      "import { tool } from '@langchain/core/tools';",
      "import OpenAI from 'openai';",
      "import { readFileSync } from 'node:fs';",
      "import { join } from 'path';",
      "import { agent } from './support-agent.js';",
      "import { AgentRunService } from 'nest-agent-graceful-shutdown';",
      "import { aiSdkAgent } from 'nest-agent-graceful-shutdown/ai-sdk';",
      "export type { Response } from 'express';",
      "import 'reflect-metadata';",
      "let response: import('fastify').FastifyReply;",
      '```',
    ].join('\n');
    expect(readmeImportedPackages(readme)).toEqual([
      '@langchain/core',
      'express',
      'fastify',
      'openai',
      'reflect-metadata',
    ]);
  });
});

describe("the library's own README", () => {
  it('has blocks that import each other by file names the blocks declare', () => {
    const blocks = readmeTypeScriptBlocks();
    const files = new Set(blocks.map(({ file }) => file));
    const relative = blocks.flatMap(({ source }) =>
      [...source.matchAll(/from '\.\/([^']+)\.js'/g)].map((match) => `${match[1]}.ts`),
    );
    expect(relative.length).toBeGreaterThan(0);
    expect(relative.filter((file) => !files.has(file))).toEqual([]);
  });

  it('writes every block under src/readme/ of the app', () => {
    const appDir = mkdtempSync(join(tmpdir(), 'readme-blocks-'));
    const written = writeReadmeBlocks(appDir);
    expect(written).toHaveLength(readmeTypeScriptBlocks().length);
    expect(written.every((path) => path.startsWith(join(appDir, 'src', 'readme')))).toBe(true);
    expect(readFileSync(written[0], 'utf8')).toBe(readmeTypeScriptBlocks()[0].source);
  });

  it('imports the library only by its package name, which the apps install from the tarball', () => {
    expect(readmeImportedPackages()).not.toContain('nest-agent-graceful-shutdown');
    expect(readmeImportedPackages()).toEqual(
      expect.arrayContaining(['@nestjs/common', '@nestjs/typeorm']),
    );
  });
});
