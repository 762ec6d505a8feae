import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { THIS_BUILD, type ServiceBuild } from '../bench/service-build';
import { SpawnedService } from '../bench/spawned-service';
import {
  shutdownTimings,
  type ShutdownTimingInputs,
  type ShutdownTimings,
} from '../deploy/shutdown-timings';
import {
  ensureLocalServicePackages,
  NginxServer,
  PostgresServer,
  RedisCluster,
  RedisServer,
} from 'dev-services';
import { EndpointsController } from './endpoints-controller';
import { ExecutionLedger } from './execution-ledger';
import { InstanceLogFiles } from './instance-log-files';
import type { DemoAgentSettings, RollingClusterOptions } from './rolling-cluster.types';
import { MetricsScraper } from './metrics-scraper';
import { RolloutTimeline } from './rollout-timeline';
import { RunContinuations } from './run-continuations';

export type { DemoAgentSettings, RollingClusterOptions } from './rolling-cluster.types';

/** One running instance of the service, by the name the report uses. */
export interface ClusterInstance {
  name: string;
  service: SpawnedService;
  /** The release it runs, and on which Node. */
  build: ServiceBuild;
}

/** How long an instance may take to boot and become ready, in ms. */
const READY_TIMEOUT_MS = 60_000;

/**
 * What a rollout runs on: one PostgreSQL, one Redis (or a Redis Cluster, see the `redis`
 * option; none with `signals: 'postgres'`), nginx in front kept up to date by an
 * {@link EndpointsController}, and instances of the built service sharing `env`. Every
 * instance's log feeds the execution ledger and the continuation ledger. `dispose()` stops it
 * all, on every path.
 */
export class RollingCluster {
  readonly instanceCount: number;
  readonly demo: DemoAgentSettings;
  readonly timing: ShutdownTimingInputs & ShutdownTimings;
  /** The grace period counted from the signal (the preStop sleep excluded), in ms. */
  readonly graceMs: number;
  readonly ledger = new ExecutionLedger();
  readonly continuations = new RunContinuations();
  /** When each instance started, was routed, signalled and exited: the lanes of the rollout's picture. */
  readonly timeline = new RolloutTimeline();
  /** `GET /metrics` of every live instance, started by the rollout (see `rollOutUnderLoad`). */
  readonly metrics = new MetricsScraper(() =>
    this.instances
      .filter((instance) => instance.service.alive)
      .map((instance) => ({ name: instance.name, baseUrl: instance.service.baseUrl })),
  );
  readonly log: (line: string) => void;
  /** Every instance started, old and new, in order. */
  readonly instances: ClusterInstance[] = [];
  private readonly cleanups: (() => Promise<unknown>)[] = [];
  /** Signs the clients' tokens; the instances check them with it (`AUTH_JWT_SECRET`). */
  private readonly secret = randomBytes(32).toString('hex');
  private readonly jwt = new JwtService({ secret: this.secret });
  private nginxServer?: NginxServer;
  private postgresServer?: PostgresServer;
  private redisServer?: RedisServer;
  private endpoints?: EndpointsController;
  private env: Record<string, string> = {};
  private readonly logFiles: InstanceLogFiles;

  private constructor(private readonly options: RollingClusterOptions) {
    this.instanceCount = options.instances ?? 3;
    this.demo = options.demo ?? { steps: 3, reasoningMs: 400, toolMs: 400 };
    const inputs = options.timing ?? {
      preStopSeconds: 0,
      drainSeconds: 1,
      saveMarginSeconds: 2,
      exitMarginSeconds: 1,
    };
    const derived = shutdownTimings(inputs);
    this.timing = { ...inputs, ...derived };
    this.graceMs = (derived.terminationGracePeriodSeconds - inputs.preStopSeconds) * 1000;
    this.log = options.log ?? (() => undefined);
    this.logFiles = new InstanceLogFiles(options.logDir, this.log);
  }

  /**
   * Starts the backends, nginx and the controller, then `instances` instances named `old-1…`,
   * each routed before the next starts. `env` is added to every instance's environment.
   */
  static async start(
    options: RollingClusterOptions,
    env: Record<string, string>,
  ): Promise<RollingCluster> {
    const cluster = new RollingCluster(options);
    try {
      await cluster.boot(env);
      return cluster;
    } catch (error) {
      await cluster.dispose();
      throw error;
    }
  }

  get nginx(): NginxServer {
    if (!this.nginxServer) throw new Error('the cluster is not started');
    return this.nginxServer;
  }

  /** The PostgreSQL and Redis every instance shares, and the instances' `DATABASE_URL`: the chaos run restarts them and reads the store. */
  get backends(): { postgres: PostgresServer; redis: RedisServer; databaseUrl: string } {
    if (!this.postgresServer) throw new Error('the cluster is not started');
    if (!this.redisServer)
      throw new Error(
        'the cluster runs on PostgreSQL alone (signals: postgres) or on a Redis Cluster: it has no single Redis server',
      );
    return {
      postgres: this.postgresServer,
      redis: this.redisServer,
      databaseUrl: this.env.DATABASE_URL,
    };
  }

  get controller(): EndpointsController {
    if (!this.endpoints) throw new Error('the cluster is not started');
    return this.endpoints;
  }

  /** The instances started by {@link start}, the ones a rollout replaces. */
  get old(): ClusterInstance[] {
    return this.instances.filter((instance) => instance.name.startsWith('old-'));
  }

  /** A bearer token (HS256, one hour) of the user `sub`. */
  token(sub: string): string {
    return this.jwt.sign({ sub }, { algorithm: 'HS256', expiresIn: '1h' });
  }

  /** Starts an instance of `build` named `name`, and resolves once nginx routes to it. */
  async launch(name: string, build: ServiceBuild = THIS_BUILD): Promise<ClusterInstance> {
    const instance = await this.spawn(name, build);
    await this.route(instance);
    return instance;
  }

  /**
   * Starts an instance of `build` (default: this checkout's) named `name` and resolves once it
   * is ready, without routing it: a warm spare for {@link route}.
   */
  async spawn(name: string, build: ServiceBuild = THIS_BUILD): Promise<ClusterInstance> {
    const readers = [
      this.ledger.reader(name),
      this.continuations.reader(name),
      this.logFiles.open(name),
    ];
    const onLine = (line: string) => {
      for (const read of readers) read?.(line);
    };
    this.timeline.launched(name);
    const service = await SpawnedService.start(this.env, READY_TIMEOUT_MS, onLine, [], build);
    const instance = { name, service, build };
    this.instances.push(instance);
    return instance;
  }

  /** Puts a started instance into nginx's rotation, and resolves once nginx routes to it. */
  async route(instance: ClusterInstance): Promise<void> {
    this.controller.watch({ name: instance.name, address: `127.0.0.1:${instance.service.port}` });
    await this.controller.waitUntilRouted(instance.name, READY_TIMEOUT_MS);
    this.timeline.routed(instance.name);
    this.log(`${instance.name} is ready and routed`);
  }

  /** Stops everything it started, in reverse order; a failed step is logged and the rest go on. */
  async dispose(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse())
      await cleanup().catch((error: unknown) => this.log(`clean-up failed: ${String(error)}`));
  }

  /** The Redis of `options.redis`, and the instances' environment for it. */
  private async startRedis(): Promise<Record<string, string>> {
    if (this.options.redis === 'cluster') {
      const cluster = await RedisCluster.start();
      this.cleanups.push(() => cluster.destroy());
      return { REDIS_URL: cluster.url, REDIS_CLUSTER: 'true' };
    }
    const redis = await RedisServer.start();
    this.redisServer = redis;
    this.cleanups.push(() => redis.destroy());
    return { REDIS_URL: redis.url };
  }

  private async boot(env: Record<string, string>): Promise<void> {
    await ensureLocalServicePackages();
    const postgres = await PostgresServer.start();
    this.postgresServer = postgres;
    this.cleanups.push(() => postgres.destroy());
    const redis =
      this.options.signals === 'postgres' ? { SIGNALS: 'postgres' } : await this.startRedis();
    // Closed after the instances are gone (clean-ups run in reverse), so their last lines are kept.
    this.cleanups.push(() => this.logFiles.close());
    const nginx = await NginxServer.start();
    this.nginxServer = nginx;
    this.cleanups.push(() => nginx.destroy());
    const controller = new EndpointsController(nginx);
    this.endpoints = controller;
    controller.start();
    this.cleanups.push(() => controller.stop());
    this.cleanups.push(() =>
      Promise.all(this.instances.map((instance) => instance.service.dispose())),
    );
    this.cleanups.push(() => this.metrics.stop());
    this.env = {
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: this.secret,
      DATABASE_URL: await postgres.createDatabase('rolling'),
      ...redis,
      SHUTDOWN_DRAIN_TIMEOUT_MS: String(this.timing.drainTimeoutMs),
      SHUTDOWN_TIMEOUT_MS: String(this.timing.shutdownTimeoutMs),
      LEASE_TTL_MS: String(this.options.leaseTtlMs ?? 5_000),
      DEMO_STEPS: String(this.demo.steps),
      DEMO_REASONING_MS: String(this.demo.reasoningMs),
      DEMO_TOOL_MS: String(this.demo.toolMs),
      ...env,
    };
    for (let i = 1; i <= this.instanceCount; i++)
      await this.launch(`old-${i}`, this.options.oldBuild);
  }
}
