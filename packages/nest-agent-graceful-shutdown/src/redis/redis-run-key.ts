/**
 * How a run appears in its Redis keys, for the signal bus and the run event log alike. Each
 * id is URI-encoded, which turns `:` into `%3A` (and braces into `%7B`, `%7D`), so `a:b` + `c`
 * and `a` + `b:c` cannot share a key; the usual ids stay readable. With hash tags the part is
 * put in braces (`{threadId:runId}`), so a Redis Cluster keeps every key of the run in one slot.
 * Without, key names stay those of earlier versions.
 */
export class RedisRunKey {
  /**
   * @param prefix put before every key, e.g. `agents:`; on a cluster it must hold no braces.
   * @param hashTags whether keys go to a Redis Cluster.
   */
  constructor(
    readonly prefix: string,
    private readonly hashTags: boolean,
  ) {
    if (hashTags && /[{}]/.test(prefix))
      throw new RangeError(
        `key prefix '${prefix}' must hold no braces on a Redis Cluster: they would change the keys' hash tag`,
      );
  }

  /** The key `<prefix><kind>:<run part>`, e.g. `agents:cancel:{t:r}` on a cluster. */
  key(kind: string, threadId: string, runId: string): string {
    const part = `${encodeURIComponent(threadId)}:${encodeURIComponent(runId)}`;
    return `${this.prefix}${kind}:${this.hashTags ? `{${part}}` : part}`;
  }
}
