import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingFromApp } from './install-consumer-app';

describe('missingFromApp', () => {
  it("names, once each, the packages the app's package.json does not list", () => {
    const dir = mkdtempSync(join(tmpdir(), 'consumer-app-'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'consumer-cjs',
        dependencies: { '@nestjs/common': '11.0.0', zod: '^4.0.0' },
      }),
    );
    expect(
      missingFromApp(dir, ['@nestjs/common', '@nestjs/terminus', 'zod', '@nestjs/terminus']),
    ).toEqual(['@nestjs/terminus']);
  });
});
