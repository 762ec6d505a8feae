import { installConsumerApp, type ConsumerApp, type InstalledApp } from '../consumer-apps';
import { eresolveConflict } from './eresolve-conflict';

/** The outcome of installing the newest peers: the app, and the peers npm refused beside the library, with the reason. */
export interface NewestInstall {
  installed?: InstalledApp;
  refused: Record<string, string>;
  error?: string;
}

/**
 * Installs `app` with `pins` (the newest releases), with npm's default peer resolution. When npm
 * refuses a pinned package with `ERESOLVE` (a release outside a peer range), that package is
 * left out, recorded with the range that refused it, and the install is tried again, so the proof
 * still runs on every newest release that installs.
 */
export async function installNewest(
  app: ConsumerApp,
  tarball: string,
  pins: Record<string, string>,
): Promise<NewestInstall> {
  const refused: Record<string, string> = {};
  const remaining = { ...pins };
  for (;;) {
    try {
      return { installed: await installConsumerApp(app, tarball, remaining), refused };
    } catch (error) {
      const message = (error as Error).message;
      const conflict = eresolveConflict(message);
      if (!conflict || !(conflict.name in remaining)) return { refused, error: message };
      refused[conflict.name] = `ERESOLVE: ${conflict.from} wants ${conflict.wanted}`;
      delete remaining[conflict.name];
    }
  }
}
