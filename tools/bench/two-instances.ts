import { SpawnedService } from './spawned-service';

/**
 * Runs `work` with two instances of the built service on one environment (the same database,
 * the same bus), both killed afterwards even when `work` throws. They start one after the
 * other: both migrate at boot, and a failed start must not leave the other running.
 */
export async function withTwoInstances<T>(
  env: Record<string, string>,
  work: (a: SpawnedService, b: SpawnedService) => Promise<T>,
): Promise<T> {
  const a = await SpawnedService.start(env);
  let b: SpawnedService | undefined;
  try {
    b = await SpawnedService.start(env);
    return await work(a, b);
  } finally {
    await Promise.all([a.dispose(), b?.dispose()]);
  }
}
