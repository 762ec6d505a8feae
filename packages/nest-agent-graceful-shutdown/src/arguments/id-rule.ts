/** Thread and run ids: letters, digits and `._:-`, 1 to 128 characters (but see `isValidId`). */
export const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** What an id must be, for messages that name a bad one. */
export const ID_RULE = `must match ${ID_PATTERN.source} and not be . or ..`;

/**
 * Whether `id` is a valid thread or run id: it matches `ID_PATTERN` and is not `.` or `..`,
 * which a path or URL would take for a directory step rather than a name.
 */
export function isValidId(id: string): boolean {
  return ID_PATTERN.test(id) && id !== '.' && id !== '..';
}
