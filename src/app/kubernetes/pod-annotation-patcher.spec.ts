import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PodPatchServer,
  selfSignedCertificate,
  serviceAccountDir,
  type Answer,
} from './kubernetes-api.fixtures';
import { KubernetesApiError } from './kubernetes-api.error';
import { PodAnnotationPatcher } from './pod-annotation-patcher';

const COST = { 'controller.kubernetes.io/pod-deletion-cost': '4' };

let account: ReturnType<typeof serviceAccountDir>;
let server: PodPatchServer | undefined;

beforeEach(() => {
  account = serviceAccountDir('token-one');
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  account.remove();
});

async function plainApi(...answers: Answer[]): Promise<{ baseUrl: string; tokenFile: string }> {
  server = new PodPatchServer(answers);
  return { baseUrl: await server.listen(), tokenFile: join(account.dir, 'token') };
}

describe('PodAnnotationPatcher', () => {
  it('sends a JSON merge patch of the annotations to the pod', async () => {
    await new PodAnnotationPatcher(await plainApi(), 'agents', 'agent-service-5d9c-x2x7q').patch(
      COST,
    );
    expect(server!.calls).toHaveLength(1);
    const [call] = server!.calls;
    expect([call.method, call.path, call.headers['content-type']]).toEqual([
      'PATCH',
      '/api/v1/namespaces/agents/pods/agent-service-5d9c-x2x7q',
      'application/merge-patch+json',
    ]);
    expect(JSON.parse(call.body)).toEqual({
      metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '4' } },
    });
  });

  it('authenticates with the bearer token from the service account file, read again at each call', async () => {
    const patcher = new PodAnnotationPatcher(await plainApi(), 'agents', 'pod-a');
    await patcher.patch(COST);
    writeFileSync(join(account.dir, 'token'), 'token-two\n');
    await patcher.patch(COST);
    expect(server!.calls.map((call) => call.headers.authorization)).toEqual([
      'Bearer token-one',
      'Bearer token-two',
    ]);
  });

  it('makes no call without a token, saying where it looked', async () => {
    const endpoint = await plainApi();
    writeFileSync(endpoint.tokenFile, '');
    await expect(new PodAnnotationPatcher(endpoint, 'agents', 'pod-a').patch(COST)).rejects.toThrow(
      /no service account token in .*token/,
    );
    expect(server!.calls).toEqual([]);
  });

  it('fails with the status and the message of a Kubernetes Status answer', async () => {
    const endpoint = await plainApi({
      status: 403,
      body: { kind: 'Status', message: 'pods "pod-a" is forbidden' },
    });
    const failure = await new PodAnnotationPatcher(endpoint, 'agents', 'pod-a')
      .patch(COST)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(KubernetesApiError);
    expect(failure).toMatchObject({
      name: 'KubernetesApiError',
      code: 'KUBERNETES_API_FAILED',
      status: 403,
    });
    expect((failure as Error).message).toMatch(/answered 403: pods "pod-a" is forbidden/);
  });

  it('gives up on an API that does not answer within its timeout', async () => {
    const endpoint = await plainApi('no answer');
    await expect(
      new PodAnnotationPatcher(endpoint, 'agents', 'pod-a', 200).patch(COST),
    ).rejects.toThrow(KubernetesApiError);
  });

  it('trusts an https API whose certificate the service account CA signed', async () => {
    const certificate = selfSignedCertificate(account.dir);
    writeFileSync(join(account.dir, 'ca.crt'), certificate.cert);
    server = new PodPatchServer([], certificate);
    const endpoint = {
      baseUrl: await server.listen(),
      tokenFile: join(account.dir, 'token'),
      caFile: join(account.dir, 'ca.crt'),
    };
    await new PodAnnotationPatcher(endpoint, 'agents', 'pod-a').patch(COST);
    expect(server.calls.map((call) => call.headers.authorization)).toEqual(['Bearer token-one']);
  });

  it('refuses an https API whose certificate another CA signed, and sends it no token', async () => {
    const certificate = selfSignedCertificate(account.dir, 'api');
    const other = selfSignedCertificate(account.dir, 'other');
    writeFileSync(join(account.dir, 'ca.crt'), other.cert);
    server = new PodPatchServer([], certificate);
    const endpoint = {
      baseUrl: await server.listen(),
      tokenFile: join(account.dir, 'token'),
      caFile: join(account.dir, 'ca.crt'),
    };
    await expect(new PodAnnotationPatcher(endpoint, 'agents', 'pod-a').patch(COST)).rejects.toThrow(
      KubernetesApiError,
    );
    expect(server.calls).toEqual([]);
  });
});
