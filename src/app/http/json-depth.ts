const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether the JSON text nests objects and arrays deeper than `maxDepth`, found in one pass over
 * its UTF-8 bytes without parsing it: brackets inside strings do not count, and the scan stops
 * at the first level too deep. Malformed text is not judged here; the parser refuses it.
 *
 * @example
 * nestsDeeperThan(Buffer.from('[[1]]'), 1); // true
 * nestsDeeperThan(Buffer.from('{"a":"[[["}'), 1); // false
 */
export function nestsDeeperThan(text: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const byte = text[index];
    if (inString) {
      if (byte === BACKSLASH) index++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
  }
  return false;
}
