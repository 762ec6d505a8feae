/** What the header of a PNG file says. */
export interface PngHeader {
  widthPx: number;
  heightPx: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The size in a PNG's header (its first chunk, `IHDR`); throws when `bytes` do not start as a PNG
 * does. For checking rendered charts without an image library.
 *
 * @example
 * readPngHeader(readFileSync('docs/images/rolling-sigterm.png')); // { widthPx: 1792, heightPx: 1040 }
 */
export function readPngHeader(bytes: Buffer): PngHeader {
  if (
    bytes.length < 24 ||
    !bytes.subarray(0, 8).equals(SIGNATURE) ||
    bytes.toString('latin1', 12, 16) !== 'IHDR'
  ) {
    throw new Error('not a PNG file: it must start with the PNG signature and an IHDR chunk');
  }
  return { widthPx: bytes.readUInt32BE(16), heightPx: bytes.readUInt32BE(20) };
}
