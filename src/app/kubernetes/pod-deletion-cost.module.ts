import { Module } from '@nestjs/common';
import { PodDeletionCostService } from './pod-deletion-cost.service';

/**
 * Deployment glue for Kubernetes: the pod's deletion cost follows its runs in flight
 * (`POD_DELETION_COST`); does nothing when that is off.
 */
@Module({ providers: [PodDeletionCostService] })
export class PodDeletionCostModule {}
