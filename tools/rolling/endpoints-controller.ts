import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { RoundLoop } from './round-loop';
import type { NginxServer } from 'dev-services';
import { getJson } from '../bench/http-json';
import { waitUntil } from '../bench/wait-until';

/** One instance behind the load balancer. */
export interface Endpoint {
  name: string;
  /** `host:port`, as nginx's upstream block takes it. */
  address: string;
}

/** A change the controller made to the load balancer, for the report. */
export interface EndpointChange {
  /** `performance.now()` when nginx served the new set. */
  atMs: number;
  name: string;
  change: 'added' | 'removed';
}

export interface EndpointsControllerOptions {
  /** How often each instance's readiness is probed, in ms (Kubernetes: `periodSeconds`). Default: 250. */
  probePeriodMs?: number;
  /** How long one probe may take before it counts as failed, in ms (`timeoutSeconds`). Default: 3000. */
  probeTimeoutMs?: number;
}

/**
 * What the Kubernetes endpoints controller and an ingress controller do together, for instances
 * on one machine: probes every known instance's readiness (failure threshold 1, success
 * threshold 1), and whenever the set of ready instances changes, points nginx's upstreams at
 * exactly that set and reloads it. An instance that starts shutting down fails readiness and
 * leaves the rotation; a new one joins once it is ready.
 */
export class EndpointsController {
  /** Every change made to the load balancer, in order. */
  readonly changes: EndpointChange[] = [];
  private readonly endpoints = new Map<string, Endpoint>();
  /** Names taken out of the rotation whatever their probes say (terminating pods). */
  private readonly terminating = new Set<string>();
  /** Names by address, kept after `forget()` so late removals are still reported by name. */
  private readonly names = new Map<string, string>();
  private readonly rounds: RoundLoop;
  private readonly probeTimeoutMs: number;
  /** A new connection per probe, as the kubelet does: a kept-alive one could outlive the instance. */
  private readonly agent = new Agent({ keepAlive: false });

  constructor(
    private readonly nginx: NginxServer,
    options: EndpointsControllerOptions = {},
  ) {
    this.rounds = new RoundLoop(() => this.probeRound(), options.probePeriodMs ?? 250);
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
  }

  /** Starts probing; instances are added with {@link watch}. */
  start(): void {
    this.rounds.start();
  }

  /** Stops probing and waits for the probe round in flight. The load balancer keeps its last set. */
  async stop(): Promise<void> {
    await this.rounds.stop();
    this.agent.destroy();
  }

  /** Probes `endpoint` from now on; it is routed once it answers ready. */
  watch(endpoint: Endpoint): void {
    this.endpoints.set(endpoint.name, endpoint);
    this.names.set(endpoint.address, endpoint.name);
  }

  /** Stops probing `name` (its process is gone); it leaves the rotation at the next round if still in. */
  forget(name: string): void {
    this.endpoints.delete(name);
    this.terminating.delete(name);
  }

  /**
   * Takes `name` out of the rotation at once, as Kubernetes does with the endpoint of a pod
   * being deleted, and resolves once nginx no longer routes new requests to it (what a pod's
   * preStop sleep waits for); fails after `timeoutMs`. Its streams in flight go on.
   */
  async terminate(name: string, timeoutMs: number): Promise<void> {
    const endpoint = this.endpoints.get(name);
    if (!endpoint) return;
    this.terminating.add(name);
    this.rounds.nudge();
    await waitUntil(
      async () => (this.nginx.servers.includes(endpoint.address) ? undefined : true),
      `${name} to leave the rotation`,
      timeoutMs,
      20,
    );
  }

  /** True when nginx currently routes new requests to `name`. */
  isRouted(name: string): boolean {
    const endpoint = this.endpoints.get(name);
    return endpoint !== undefined && this.nginx.servers.includes(endpoint.address);
  }

  /** Resolves once nginx routes new requests to `name`; fails after `timeoutMs`. */
  async waitUntilRouted(name: string, timeoutMs: number): Promise<void> {
    await waitUntil(
      async () => (this.isRouted(name) ? true : undefined),
      `${name} to be routed`,
      timeoutMs,
      20,
    );
  }

  /** One probe of every instance; nginx gets the new set of ready instances when it changed. */
  private async probeRound(): Promise<void> {
    const endpoints = [...this.endpoints.values()];
    const ready = await Promise.all(endpoints.map((endpoint) => this.isReady(endpoint.address)));
    const next = endpoints
      .filter((endpoint, i) => ready[i] && !this.terminating.has(endpoint.name))
      .map((endpoint) => endpoint.address);
    const current = this.nginx.servers;
    if (
      this.rounds.active &&
      (next.length !== current.length || next.some((address) => !current.includes(address)))
    ) {
      await this.nginx.setUpstreams(next);
      const atMs = performance.now();
      for (const address of next.filter((a) => !current.includes(a)))
        this.record(atMs, address, 'added');
      for (const address of current.filter((a) => !next.includes(a)))
        this.record(atMs, address, 'removed');
    }
  }

  /** `GET /health/ready` answered 200 within the probe timeout. */
  private async isReady(address: string): Promise<boolean> {
    const answer = await getJson(
      `http://${address}/health/ready`,
      this.agent,
      this.probeTimeoutMs,
    ).catch(() => undefined);
    return answer?.status === 200;
  }

  private record(atMs: number, address: string, change: EndpointChange['change']): void {
    this.changes.push({ atMs, name: this.names.get(address) ?? address, change });
  }
}
