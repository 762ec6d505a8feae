import type { LoggerService } from '@nestjs/common';

/** One entry a {@link RecordingLogger} kept. */
export interface RecordedEntry {
  level: string;
  entry: Record<string, unknown>;
}

/** Keeps what a Redis adapter logs, so the output stays quiet and a spec can read its warnings. */
export class RecordingLogger implements LoggerService {
  readonly entries: RecordedEntry[] = [];
  log = (entry: Record<string, unknown>) => void this.entries.push({ level: 'log', entry });
  warn = (entry: Record<string, unknown>) => void this.entries.push({ level: 'warn', entry });
  error = (entry: Record<string, unknown>) => void this.entries.push({ level: 'error', entry });
}
