/**
 * A fresh id for a thread, run or message (`prefix-` and 16 hex digits), from the browser's
 * secure random source. Not `crypto.randomUUID`: that one exists on secure origins only, and
 * the console may be opened over plain HTTP from another machine.
 */
export function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `${prefix}-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
