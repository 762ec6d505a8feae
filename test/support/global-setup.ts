import { ensureLocalServicePackages, ensurePromtool } from 'dev-services';

/**
 * Jest globalSetup: installs PostgreSQL, redis-server, nginx and chromium (as root, via apt)
 * once, and fetches promtool (out of Debian's prometheus package), before any worker starts, so
 * parallel suites never race for dpkg's lock or the download. Takes minutes on a fresh machine,
 * a few file checks once installed. Jest transpiles this file with the first project's
 * transform (ts-jest), so it can stay TypeScript and import src/ directly.
 */
export default async function globalSetup(): Promise<void> {
  await ensureLocalServicePackages();
  await ensurePromtool();
}
