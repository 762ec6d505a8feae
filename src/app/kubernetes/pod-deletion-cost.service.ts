import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AgentTelemetry } from 'nest-agent-graceful-shutdown/telemetry';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { inClusterEndpoint, podNamespace } from './in-cluster-api';
import { PodAnnotationPatcher } from './pod-annotation-patcher';
import { PodDeletionCostUpdater } from './pod-deletion-cost.updater';

/**
 * Runs the {@link PodDeletionCostUpdater} on this pod when `POD_DELETION_COST=true`, fed by the
 * runs in flight that `agent_runs_in_flight` reports. Starts at bootstrap (refusing the boot when
 * the Kubernetes API or the pod's namespace cannot be found) and stops at shutdown.
 */
@Injectable()
export class PodDeletionCostService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PodDeletionCost');
  private updater?: PodDeletionCostUpdater;

  constructor(
    private readonly config: ConfigService,
    private readonly telemetry: AgentTelemetry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const pod = this.config.getOrThrow<AppConfig>(APP_CONFIG_KEY).podDeletionCost;
    if (!pod) return;
    let namespace: string;
    try {
      namespace = await podNamespace(pod.podNamespace);
    } catch (error) {
      this.logger.error({ msg: 'cannot start', error: (error as Error).message });
      throw error;
    }
    const endpoint = inClusterEndpoint(process.env);
    const patcher = new PodAnnotationPatcher(endpoint, namespace, pod.podName);
    this.updater = new PodDeletionCostUpdater(
      () => this.telemetry.runsInFlight,
      patcher,
      this.logger,
    );
    this.updater.start();
    this.logger.log({
      msg: 'pod deletion cost follows runs in flight',
      pod: pod.podName,
      namespace,
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.updater?.stop();
  }
}
