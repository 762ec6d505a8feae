// PostgreSQL aborts one of two transactions that lock rows in opposite orders (deadlock) or
// cannot be serialized; the other goes on, and the aborted one wrote nothing.
const CONFLICT_CODES = new Set(['40P01', '40001']);

/** True for a transaction the database aborted because of another one: running it again is safe. */
export function isTransactionConflict(error: unknown): boolean {
  const candidate = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = candidate?.code ?? candidate?.driverError?.code;
  return typeof code === 'string' && CONFLICT_CODES.has(code);
}

/**
 * Runs `transaction` again, up to `attempts` times in all, while the database aborts it for a
 * conflict with another transaction. A batch that updates thousands of threads can deadlock
 * with a lease renewal that updates the same rows in another order; without this, one
 * deadlock would fail every run of the batch.
 * @param attempts how many times to try in all. @default 5
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
    }
  }
}
