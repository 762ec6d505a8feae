import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';

/**
 * The instances' log files of a rollout, `<dir>/<instance>.log`, written as the lines come and
 * closed together by {@link close}. Without a folder it keeps nothing.
 */
export class InstanceLogFiles {
  private readonly files: WriteStream[] = [];

  constructor(
    private readonly dir: string | undefined,
    private readonly log: (line: string) => void,
  ) {
    if (dir) mkdirSync(dir, { recursive: true });
  }

  /** A line writer for `instance`'s log, or undefined without a folder. */
  open(instance: string): ((line: string) => void) | undefined {
    if (!this.dir) return undefined;
    // Written without blocking: this process also times the clients' streams.
    const file = createWriteStream(join(this.dir, `${instance}.log`), { flags: 'a' });
    file.on('error', (error) => this.log(`${instance}'s log file failed: ${String(error)}`));
    this.files.push(file);
    return (line) => {
      if (file.writable) file.write(`${line}\n`);
    };
  }

  /** Ends every file and resolves once all are flushed. */
  async close(): Promise<void> {
    const files = this.files.splice(0);
    for (const file of files) file.end();
    await Promise.all(files.map((file) => finished(file)));
  }
}
