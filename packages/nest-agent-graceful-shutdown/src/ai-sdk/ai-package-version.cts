/**
 * The version of the `ai` package this library resolves (the host's), read from its package
 * file. A CommonJS module in both builds (`.cts`): an ES module may not `require`, and a JSON
 * import needs an import attribute that CommonJS output may not carry. It reads a file and holds
 * no state, so the ESM build loading it as CommonJS loads no second instance of anything.
 */
export function aiPackageVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('ai/package.json') as { version: string }).version;
}
