import { ServiceProcess } from './service-process';

/** The service processes a suite started, so one call stops them all. */
export class ServiceGroup {
  private readonly started: ServiceProcess[] = [];

  async start(
    options: { env?: Record<string, string>; dataDir?: string; port?: number } = {},
  ): Promise<ServiceProcess> {
    const service = await ServiceProcess.start(options);
    this.started.push(service);
    return service;
  }

  /** A new process on the same data directory and environment as `previous`, as after a restart; on its port with `samePort`. */
  restart(previous: ServiceProcess, options: { samePort?: boolean } = {}): Promise<ServiceProcess> {
    return this.start({
      env: previous.env,
      dataDir: previous.dataDir,
      ...(options.samePort ? { port: previous.port } : {}),
    });
  }

  /** The first process started, for suites that restart it in a later test. */
  get first(): ServiceProcess {
    return this.started[0];
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.splice(0).map((service) => service.stop()));
  }
}
