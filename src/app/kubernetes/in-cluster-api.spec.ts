import { inClusterEndpoint, podNamespace } from './in-cluster-api';
import { serviceAccountDir } from './kubernetes-api.fixtures';

describe('inClusterEndpoint', () => {
  it('reaches the API at KUBERNETES_SERVICE_HOST and _PORT over https, with the service account token and CA', () => {
    expect(
      inClusterEndpoint(
        { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' },
        '/sa',
      ),
    ).toEqual({
      baseUrl: 'https://10.96.0.1:443',
      tokenFile: '/sa/token',
      caFile: '/sa/ca.crt',
    });
  });

  it('puts an IPv6 host in brackets', () => {
    expect(
      inClusterEndpoint({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' })
        .baseUrl,
    ).toBe('https://[fd00::1]:443');
  });

  it('refuses to run outside a pod, naming the variables it misses', () => {
    expect(() => inClusterEndpoint({})).toThrow(
      /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT/,
    );
  });
});

describe('podNamespace', () => {
  it('is POD_NAMESPACE when given', async () => {
    await expect(podNamespace('team-a', '/nowhere')).resolves.toBe('team-a');
  });

  it('falls back to the service account namespace file', async () => {
    const account = serviceAccountDir('token', 'team-b');
    try {
      await expect(podNamespace(undefined, account.dir)).resolves.toBe('team-b');
    } finally {
      account.remove();
    }
  });

  it('refuses when neither is there, naming POD_NAMESPACE', async () => {
    await expect(podNamespace(undefined, '/nowhere')).rejects.toThrow(/POD_NAMESPACE is unset/);
  });
});
