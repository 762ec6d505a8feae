import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from 'dev-services';
import {
  PodPatchServer,
  selfSignedCertificate,
  serviceAccountDir,
} from '../src/app/kubernetes/kubernetes-api.fixtures';
import { api, runInput, tokenFor } from './support/http';
import { ServiceProcess } from './support/service-process';
import { startRun, type RunStream } from './support/sse';

const POD = 'agent-service-7f9c5d-x2x7q';
const NAMESPACE = 'agents-e2e';
const TOKEN = 'e2e-service-account-token';
/** The updater checks every 10 s: a change shows within one check, plus a patch's time. */
const PATCH_DEADLINE_MS = 25_000;

/**
 * Runs the service where a pod finds its service account (`/var/run/secrets/kubernetes.io/serviceaccount`):
 * in a mount namespace of its own (`unshare --mount`) with a tmpfs over `/run`, so the machine's
 * own `/run` is untouched.
 */
const IN_POD_SHELL =
  'mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io && cp -r "$0" /run/secrets/kubernetes.io/serviceaccount && exec "$1" "$2"';

const user = tokenFor('cost-user');
let account: ReturnType<typeof serviceAccountDir>;
let apiServer: PodPatchServer;
let service: ServiceProcess;

/** The deletion costs the service patched its pod with, in order. */
function patchedCosts(): string[] {
  return apiServer.calls.map(
    (call) =>
      (JSON.parse(call.body) as { metadata: { annotations: Record<string, string> } }).metadata
        .annotations['controller.kubernetes.io/pod-deletion-cost'],
  );
}

async function waitForCost(cost: string, what: string): Promise<void> {
  await waitFor(
    () => patchedCosts().at(-1) === cost,
    `a patch to ${cost} (${what}); patched so far: ${patchedCosts().join(', ')}`,
    PATCH_DEADLINE_MS,
    100,
  );
}

beforeAll(async () => {
  account = serviceAccountDir(TOKEN, NAMESPACE);
  const certificate = selfSignedCertificate(account.dir);
  writeFileSync(join(account.dir, 'ca.crt'), certificate.cert);
  apiServer = new PodPatchServer([], certificate);
  const apiPort = new URL(await apiServer.listen()).port;
  service = await ServiceProcess.start({
    launcher: { program: 'unshare', args: ['--mount', 'sh', '-c', IN_POD_SHELL, account.dir] },
    env: {
      DEMO_STEPS: '40',
      DEMO_TOOL_MS: '500',
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: apiPort,
      POD_DELETION_COST: 'true',
      POD_NAME: POD,
      // POD_NAMESPACE unset: the namespace comes from the service account's file.
    },
  });
});

afterAll(async () => {
  await service?.stop();
  await apiServer?.close();
  account?.remove();
});

describe('the service with POD_DELETION_COST=true', () => {
  let streams: RunStream[] = [];

  it('writes its pod’s deletion cost at boot: 0, idle', async () => {
    await waitForCost('0', 'at boot');
  });

  it('patches its own pod, in the namespace of its service account, with the token from the file, over the cluster CA', () => {
    const [call] = apiServer.calls;
    expect([
      call.method,
      call.path,
      call.headers.authorization,
      call.headers['content-type'],
    ]).toEqual([
      'PATCH',
      `/api/v1/namespaces/${NAMESPACE}/pods/${POD}`,
      `Bearer ${TOKEN}`,
      'application/merge-patch+json',
    ]);
  });

  it('raises the cost with its runs in flight, by bucket, not by run', async () => {
    const before = apiServer.calls.length;
    streams = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        startRun(
          service.baseUrl,
          user,
          runInput(`cost-${name}`, 'run-1', [{ id: `cost-${name}-u1`, content: 'work' }]),
        ),
      ),
    );
    await Promise.all(
      streams.map((stream) =>
        stream.waitForEvent((event) => event.type === 'RUN_STARTED', 'RUN_STARTED'),
      ),
    );
    await waitForCost('2', 'three runs in flight');
    // Three runs make at most two patches (1 then 2, had a check fallen between their starts).
    expect(['2', '1,2']).toContain(patchedCosts().slice(before).join(','));
  });

  it('lowers it back to 0 when its runs end', async () => {
    for (const name of ['a', 'b', 'c']) {
      const cancel = await api(service.baseUrl, `/v1/runs/cost-${name}/cancel?waitMs=10000`, {
        method: 'POST',
        token: user,
      });
      expect(cancel.body).toMatchObject({ stopped: true });
    }
    await Promise.all(streams.map((stream) => stream.done));
    await waitForCost('0', 'no run in flight');
  });

  it('never logs the token', () => {
    expect(service.logs).toContain('pod deletion cost follows runs in flight');
    expect(service.logs).not.toContain(TOKEN);
  });
});
