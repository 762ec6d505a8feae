import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureKubernetesTools } from 'dev-services';
import { helmTemplate } from './support/kubernetes-cli';
import { findObject, parseManifests, type KubernetesObject } from './support/kubernetes-objects';
import { onlyContainer, podSpecOf, selects, type Deployment } from './support/pod-spec';

/** The first call fetches helm and kubectl (tens of MB) on a fresh machine. */
const FETCH_TIMEOUT_MS = 300_000;

let byDefault: KubernetesObject[];

function deploymentOf(objects: KubernetesObject[]): Deployment {
  return findObject<Deployment>(objects, 'Deployment');
}

function hookPodOf(objects: KubernetesObject[]): KubernetesObject {
  return findObject(objects, 'Pod');
}

/** Runs the test hook's container command here, with `url` in place of the Service's; resolves its exit code. */
function runHookCommand(command: string[], url: string): Promise<number> {
  const [binary, ...args] = command;
  return new Promise((resolve) => {
    execFile(
      binary === 'node' ? process.execPath : binary,
      [...args.slice(0, -1), url],
      { timeout: 20_000 },
      (error) => {
        resolve(error ? Number(error.code ?? -1) : 0);
      },
    );
  });
}

/** An HTTP server on 127.0.0.1 answering every request with `status`. */
async function answering(status: number): Promise<Server> {
  const server = createServer((_, res) => res.writeHead(status).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  await ensureKubernetesTools();
  byDefault = parseManifests(await helmTemplate(), 'helm template');
}, FETCH_TIMEOUT_MS);

describe('the helm test hook', () => {
  it('is a test hook pod that runs the service’s own image, hardened like the Deployment', () => {
    const pod = hookPodOf(byDefault);
    expect(pod.metadata!.annotations!['helm.sh/hook']).toBe('test');
    const deployment = podSpecOf(deploymentOf(byDefault));
    expect(onlyContainer(podSpecOf(pod)).image).toBe(onlyContainer(deployment).image);
    expect(podSpecOf(pod).securityContext).toEqual(deployment.securityContext);
    expect(onlyContainer(podSpecOf(pod)).securityContext).toEqual(
      onlyContainer(deployment).securityContext,
    );
    expect(podSpecOf(pod).automountServiceAccountToken).toBe(false);
  });

  it('asks the Service for /health/ready', () => {
    const command = onlyContainer(podSpecOf(hookPodOf(byDefault))).command!;
    expect(command.slice(0, 2)).toEqual(['node', '-e']);
    expect(command.at(-1)).toBe('http://agent-service:80/health/ready');
  });

  it('is not selected by the Service or the PodDisruptionBudget', () => {
    const labels = hookPodOf(byDefault).metadata!.labels;
    expect(
      selects(
        (findObject(byDefault, 'Service').spec as { selector: Record<string, string> }).selector,
        labels,
      ),
    ).toBe(false);
    const pdb = findObject(byDefault, 'PodDisruptionBudget').spec as {
      selector: { matchLabels: Record<string, string> };
    };
    expect(selects(pdb.selector.matchLabels, labels)).toBe(false);
  });

  it('exits 0 when readiness answers 200, and non-zero on 503 or no answer', async () => {
    const command = onlyContainer(podSpecOf(hookPodOf(byDefault))).command!;
    const ready = await answering(200);
    const draining = await answering(503);
    const closed = await answering(200);
    const urlOf = (server: Server) =>
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/health/ready`;
    const closedUrl = urlOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    try {
      expect(await runHookCommand(command, urlOf(ready))).toBe(0);
      expect(await runHookCommand(command, urlOf(draining))).not.toBe(0);
      expect(await runHookCommand(command, closedUrl)).not.toBe(0);
    } finally {
      ready.close();
      draining.close();
    }
  });
});
