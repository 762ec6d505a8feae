/** The number of hash slots of a Redis Cluster. */
const SLOTS = 16_384;

/**
 * The hash slot of a Redis Cluster key: CRC16 (XMODEM) of its hash tag, the part between the
 * first `{` and the next `}` when that part is not empty, else of the whole key, modulo 16384.
 * Keys of one slot can go into one multi-key command, e.g. one `XREAD` for several runs.
 *
 * @example
 * redisKeySlot('agents:log:{t:r}') === redisKeySlot('agents:log-writer:{t:r}'); // true
 */
export function redisKeySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(hashed, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % SLOTS;
}

/** `items` in groups whose keys share a hash slot, each group in the items' order. */
export function groupBySlot<T>(items: Iterable<T>, keyOf: (item: T) => string): T[][] {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const slot = redisKeySlot(keyOf(item));
    const group = groups.get(slot);
    if (group) group.push(item);
    else groups.set(slot, [item]);
  }
  return [...groups.values()];
}
