import { resolve } from 'node:path';

const PRELOAD = resolve(__dirname, '../fixtures/deaf-demo-tool.js');

/**
 * Environment that starts a service whose demo tool ignores its abort signal (each call runs
 * its whole `DEMO_TOOL_MS`): a tool still running when its run stops, and when the process exits.
 */
export function deafDemoTool(): Record<string, string> {
  return { NODE_OPTIONS: `--require ${PRELOAD}` };
}
