import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';

/** The files of the built console, by name, with their media types: nothing else is served. */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

/** One file of the console, ready to send. */
export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

/**
 * The console's static files, bundled by `npm run build` from `console/` into `dist/console/`
 * (beside this compiled file's `dist/app/`), each read once and kept in memory.
 */
@Injectable()
export class ConsoleAssets {
  private readonly dir = resolve(__dirname, '../../console');
  private readonly loaded = new Map<string, Promise<ConsoleAsset | undefined>>();

  /** The file `name`; undefined when it is not one of the console's files, or was not built. */
  get(name: string): Promise<ConsoleAsset | undefined> {
    const contentType = Object.hasOwn(ASSET_TYPES, name) ? ASSET_TYPES[name] : undefined;
    if (!contentType) return Promise.resolve(undefined);
    let asset = this.loaded.get(name);
    if (!asset) {
      asset = readFile(join(this.dir, name)).then(
        (body) => ({ body, contentType }),
        () => undefined,
      );
      this.loaded.set(name, asset);
    }
    return asset;
  }
}
