import { Inject, Injectable } from '@nestjs/common';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { SIGNAL_BUS, type SignalBus } from '../contracts/signal-bus.interface.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { resolveResumeMode, type ResumeMode } from '../options/resume-mode.js';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';

/**
 * Who continues an interrupted run in this deployment (see `RunOptions.resumeMode`), decided
 * once for every service that asks. Decided on first use, not at construction: the store knows
 * whether it is an embedded file only once its data source is resolved.
 */
@Injectable()
export class ResumeModeSetting {
  private decided?: ResumeMode;

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(SIGNAL_BUS) private readonly signals: SignalBus,
  ) {}

  get mode(): ResumeMode {
    this.decided ??= resolveResumeMode(this.options, this.store, this.signals);
    return this.decided;
  }
}
