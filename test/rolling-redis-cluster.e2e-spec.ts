import { describeShortHandover } from './support/short-handover-suite';

/**
 * The handover proof (see `tools/rolling/handover-proof.ts`) with the instances on a local Redis
 * Cluster of 3 masters, each with a replica (`REDIS_CLUSTER=true`, `REDIS_URL` a seed node):
 * the signals, the run event logs and the joins of handed-over runs all go through the cluster.
 * `npm run demo:rolling -- --mode handover --redis cluster` runs the long version.
 */
describeShortHandover(
  'a rolling deployment with handover on a Redis Cluster, under 12 client sessions',
  { redis: 'cluster' },
);
