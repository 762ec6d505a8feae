import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import {
  isFailing,
  parseClusterNodes,
  sameSlots,
  servesSlot,
  type ClusterNodeLine,
} from './cluster-nodes';
import { redisCli } from './redis-cli';
import { RedisServer } from './redis-server';
import { waitFor } from './wait-for';

/** How long a fresh or failed-over cluster may take to report itself whole, in ms. */
const HEALTHY_TIMEOUT_MS = 30_000;

/** Picking free ports and binding them are not atomic; a lost race is retried with new ports. */
const NODE_ATTEMPTS = 3;

/** Settings of a {@link RedisCluster}. */
export interface RedisClusterOptions {
  /** Masters, each owning a third (for 3) of the 16384 slots. @default 3 */
  masters?: number;
  /**
   * `cluster-node-timeout`, in ms: how long a master may be unreachable before its replica
   * takes over. Small, so a failover in a test takes seconds. @default 1000
   */
  nodeTimeoutMs?: number;
}

/**
 * A real Redis Cluster on 127.0.0.1 for tests and benchmarks: `masters` masters, each with one
 * replica (`redis-server --cluster-enabled yes`, joined by `redis-cli --cluster create …
 * --cluster-replicas 1`), no persistence, no password. Node files live in a temporary
 * directory that `destroy()` removes. {@link killMaster} crashes a master and waits for its
 * replica's promotion.
 *
 * @example
 * const cluster = await RedisCluster.start();
 * // REDIS_URL=cluster.url REDIS_CLUSTER=true
 * await cluster.destroy();
 */
export class RedisCluster {
  private constructor(
    /** Every node, masters first as created (roles change with failovers). */
    readonly nodes: RedisServer[],
    private readonly dir: string,
  ) {}

  /** A seed node's url, `redis://127.0.0.1:<port>` of the first node that runs. */
  get url(): string {
    return (this.nodes.find((node) => node.running) ?? this.nodes[0]).url;
  }

  /** Starts the nodes, creates the cluster and resolves once every node reports it whole. */
  static async start(options: RedisClusterOptions = {}): Promise<RedisCluster> {
    const masters = options.masters ?? 3;
    const nodeTimeoutMs = options.nodeTimeoutMs ?? 1_000;
    const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
    const cluster = new RedisCluster([], dir);
    try {
      for (let index = 0; index < masters * 2; index++)
        cluster.nodes.push(await startNode(dir, nodeTimeoutMs));
      const addresses = cluster.nodes.map((node) => `127.0.0.1:${node.port}`);
      await redisCli(
        undefined,
        '--cluster',
        'create',
        ...addresses,
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      );
      await cluster.waitHealthy();
      return cluster;
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
  }

  /**
   * Resolves once every running node says `cluster_state:ok`, every slot's master is up, and
   * every replica of a running master is in sync with it; throws after `timeoutMs`.
   */
  async waitHealthy(timeoutMs = HEALTHY_TIMEOUT_MS): Promise<void> {
    await waitFor(() => this.isHealthy(), 'the redis cluster to be whole', timeoutMs, 50);
  }

  /**
   * Resolves once every running replica has everything its master wrote so far (its offset
   * equals its master's), so that a master killed now loses nothing; throws after `timeoutMs`.
   */
  async waitReplicated(timeoutMs = HEALTHY_TIMEOUT_MS): Promise<void> {
    await waitFor(
      async () => {
        for (const line of await this.clusterNodes()) {
          if (
            !line.flags.includes('master') ||
            line.slots.length === 0 ||
            !this.nodes.some((node) => node.port === line.port && node.running)
          )
            continue;
          const info = await redisCli(line.port, 'INFO', 'replication');
          const offset = /master_repl_offset:(\d+)/.exec(info)?.[1];
          const replicas = [...info.matchAll(/slave\d+:[^\n]*offset=(\d+)/g)].map(
            (match) => match[1],
          );
          if (replicas.length === 0 || replicas.some((replica) => replica !== offset)) return false;
        }
        return true;
      },
      'the replicas to have all their masters wrote',
      timeoutMs,
      20,
    );
  }

  /** The node that serves `key` now: the master of its slot. */
  async masterOf(key: string): Promise<RedisServer> {
    const slot = Number((await redisCli(this.runningPort(), 'CLUSTER', 'KEYSLOT', key)).trim());
    const line = (await this.clusterNodes()).find(
      (node) => node.flags.includes('master') && servesSlot(node, slot),
    );
    const server = this.nodes.find((node) => node.port === line?.port);
    if (!server) throw new Error(`no master serves slot ${slot} of key ${key}`);
    return server;
  }

  /**
   * Kills `master` with SIGKILL (a crash) and resolves with the replica promoted in its place,
   * once the cluster is whole again; throws when that takes longer than `timeoutMs`.
   */
  async killMaster(master: RedisServer, timeoutMs = HEALTHY_TIMEOUT_MS): Promise<RedisServer> {
    const before = (await this.clusterNodes()).find((node) => node.port === master.port);
    if (!before?.flags.includes('master')) throw new Error(`node ${master.port} is not a master`);
    await master.stop('SIGKILL');
    const promoted = await waitFor(
      async () => {
        const nodes = await this.clusterNodes();
        const heir = nodes.find(
          (node) =>
            node.port !== master.port &&
            node.flags.includes('master') &&
            !isFailing(node) &&
            sameSlots(node, before),
        );
        return heir && this.nodes.find((server) => server.port === heir.port);
      },
      `a replica of ${master.port} to be promoted`,
      timeoutMs,
      50,
    );
    await this.waitHealthy(timeoutMs);
    return promoted;
  }

  /**
   * Kills `node` with SIGKILL (a crash) and resolves once the cluster is whole again: a master
   * is replaced by its replica (see {@link killMaster}), a replica is just gone.
   */
  async crash(node: RedisServer, timeoutMs = HEALTHY_TIMEOUT_MS): Promise<void> {
    const line = (await this.clusterNodes()).find((candidate) => candidate.port === node.port);
    if (line?.flags.includes('master')) {
      await this.killMaster(node, timeoutMs);
      return;
    }
    await node.stop('SIGKILL');
    await this.waitHealthy(timeoutMs);
  }

  /**
   * Starts a stopped node again on its port, with its node file: a master failed over comes
   * back as its heir's replica. Resolves once the cluster is whole.
   */
  async restart(node: RedisServer, timeoutMs = HEALTHY_TIMEOUT_MS): Promise<void> {
    await node.startAgain();
    await this.waitHealthy(timeoutMs);
  }

  /** Stops every node and removes the node files. */
  async destroy(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.destroy()));
    await rm(this.dir, { recursive: true, force: true });
  }

  private async isHealthy(): Promise<boolean> {
    const running = this.nodes.filter((node) => node.running);
    for (const node of running) {
      if (!(await redisCli(node.port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'))
        return false;
    }
    const lines = await this.clusterNodes();
    const livePorts = new Set(running.map((node) => node.port));
    for (const line of lines) {
      if (!livePorts.has(line.port)) continue;
      if (isFailing(line)) return false;
      if (line.flags.includes('master') && line.slots.length === 0) continue;
      if (
        line.flags.includes('slave') &&
        !(await redisCli(line.port, 'INFO', 'replication')).includes('master_link_status:up')
      )
        return false;
    }
    return lines.some((line) => line.flags.includes('master') && line.slots.length > 0);
  }

  private runningPort(): number {
    const node = this.nodes.find((candidate) => candidate.running);
    if (!node) throw new Error('no node of the redis cluster runs');
    return node.port;
  }

  private async clusterNodes(): Promise<ClusterNodeLine[]> {
    return parseClusterNodes(await redisCli(this.runningPort(), 'CLUSTER', 'NODES'));
  }
}

/** One cluster node, its node file and bus port its own; retried on a lost port race. */
async function startNode(dir: string, nodeTimeoutMs: number): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    const [port, busPort] = [await freePort(), await freePort()];
    try {
      return await RedisServer.start({
        port,
        args: [
          ...['--cluster-enabled', 'yes', '--cluster-port', String(busPort)],
          ...['--cluster-config-file', `nodes-${port}.conf`, '--dir', dir],
          ...['--cluster-node-timeout', String(nodeTimeoutMs)],
          // Loopback nodes: a replica must take over even if it lagged for a moment.
          ...['--cluster-replica-validity-factor', '0'],
        ],
      });
    } catch (error) {
      if (attempt >= NODE_ATTEMPTS || !/Address already in use/i.test(String(error))) throw error;
    }
  }
}
