/**
 * Text every store holds as sent. PostgreSQL refuses U+0000 in text, and a lone UTF-16
 * surrogate does not survive UTF-8 (a driver stores U+FFFD), so the text read back would no
 * longer equal the text sent. Both are refused at admission, on every store alike.
 */
// With the `u` flag a surrogate pair is one code point, so `\p{Cs}` finds only lone surrogates.
const LONE_SURROGATE = /\p{Cs}/u;
const CONTROL = /\p{Cc}/u;

/** What storable text must be, for messages that name a bad one. */
export const TEXT_RULE = 'must not contain U+0000 or a lone UTF-16 surrogate';

/** Whether every store holds `text` exactly as sent (see `TEXT_RULE`). */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** The longest user id the stores hold (the token's `sub`, kept as sent), in characters. */
export const MAX_USER_ID_LENGTH = 256;

/** What a user id must be, for messages that name a bad one. */
export const USER_ID_RULE =
  `must be 1 to ${MAX_USER_ID_LENGTH} characters, without leading or trailing blanks, ` +
  'control characters or lone UTF-16 surrogates';

/**
 * Whether `id` is a user id every store holds and compares as sent: 1 to `MAX_USER_ID_LENGTH`
 * characters, no blank at either end (`" alice"` is not a second alice), no control character,
 * no lone surrogate. Any other character (an email, `auth0|123`, a URL) is kept as sent.
 */
export function isValidUserId(id: string): boolean {
  return (
    id.length > 0 &&
    id.length <= MAX_USER_ID_LENGTH &&
    id === id.trim() &&
    !CONTROL.test(id) &&
    isStorableText(id)
  );
}
