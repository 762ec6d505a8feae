import { shutdownTimings, type ShutdownTimingInputs } from '../tools/deploy/shutdown-timings';
import { ensureKubernetesTools } from 'dev-services';
import { chartDefaults, mergeValues, readYaml, type Values } from './support/helm-values';
import { CHART_DIR, helmTemplate, kustomize, type RenderOptions } from './support/kubernetes-cli';
import { findObject, parseManifests, type KubernetesObject } from './support/kubernetes-objects';
import { effectiveEnv, onlyContainer, podSpecOf, type Deployment } from './support/pod-spec';

/** The first call fetches helm and kubectl (tens of MB) on a fresh machine. */
const FETCH_TIMEOUT_MS = 300_000;

/** The numbers a rendered Deployment gives the kubelet and the service. */
interface RenderedTimings {
  terminationGracePeriodSeconds: number;
  /** The preStop sleep in seconds; 0 when there is no preStop hook. */
  preStopSeconds: number;
  drainTimeoutMs: number;
  shutdownTimeoutMs: number;
}

function renderedTimings(objects: KubernetesObject[]): RenderedTimings {
  const deployment = findObject<Deployment>(objects, 'Deployment');
  const pod = podSpecOf(deployment);
  const container = onlyContainer(pod);
  const env = effectiveEnv(container, objects);
  const preStop = container.lifecycle?.preStop?.exec?.command;
  if (preStop && (preStop.length !== 2 || preStop[0] !== 'sleep'))
    throw new Error(`preStop is not ["sleep", n]: ${JSON.stringify(preStop)}`);
  return {
    terminationGracePeriodSeconds: pod.terminationGracePeriodSeconds!,
    preStopSeconds: preStop ? Number(preStop[1]) : 0,
    drainTimeoutMs: Number(env.get('SHUTDOWN_DRAIN_TIMEOUT_MS')),
    shutdownTimeoutMs: Number(env.get('SHUTDOWN_TIMEOUT_MS')),
  };
}

function inputsOf(values: Values): ShutdownTimingInputs {
  return values.shutdown as ShutdownTimingInputs;
}

/** Input sets to render the chart with, and the values each one amounts to. */
const CASES: Array<{ name: string; render: RenderOptions; values: () => Values }> = [
  { name: 'the defaults', render: {}, values: chartDefaults },
  {
    name: 'values-production.yaml',
    render: { valuesFiles: [`${CHART_DIR}/values-production.yaml`] },
    values: () => mergeValues(chartDefaults(), readYaml(`${CHART_DIR}/values-production.yaml`)),
  },
  {
    name: 'a 10-minute drain for long runs',
    render: {
      set: [
        'shutdown.drainSeconds=600',
        'shutdown.saveMarginSeconds=30',
        'shutdown.exitMarginSeconds=5',
      ],
    },
    values: () =>
      mergeValues(chartDefaults(), {
        shutdown: { drainSeconds: 600, saveMarginSeconds: 30, exitMarginSeconds: 5 },
      }),
  },
  {
    name: 'no preStop sleep',
    render: { set: ['shutdown.preStopSeconds=0'] },
    values: () => mergeValues(chartDefaults(), { shutdown: { preStopSeconds: 0 } }),
  },
  {
    name: 'no drain, the smallest margins',
    render: {
      set: [
        'shutdown.drainSeconds=0',
        'shutdown.saveMarginSeconds=1',
        'shutdown.exitMarginSeconds=1',
        'shutdown.preStopSeconds=3',
      ],
    },
    values: () =>
      mergeValues(chartDefaults(), {
        shutdown: {
          drainSeconds: 0,
          saveMarginSeconds: 1,
          exitMarginSeconds: 1,
          preStopSeconds: 3,
        },
      }),
  },
];

/** The invariants every deployment must keep, whatever its inputs. */
function expectInvariants(timings: RenderedTimings, inputs: ShutdownTimingInputs): void {
  const {
    terminationGracePeriodSeconds: grace,
    preStopSeconds,
    drainTimeoutMs,
    shutdownTimeoutMs,
  } = timings;
  // The kubelet waits at least for preStop, the drain and the save.
  expect(grace).toBeGreaterThanOrEqual(
    inputs.preStopSeconds + inputs.drainSeconds + inputs.saveMarginSeconds,
  );
  // The service's own hard deadline falls before the kubelet's SIGKILL.
  expect(shutdownTimeoutMs).toBeLessThan((grace - preStopSeconds) * 1000);
  // There is time to save what the drain interrupts.
  expect(shutdownTimeoutMs).toBeGreaterThan(drainTimeoutMs);
}

const rendered = new Map<string, KubernetesObject[]>();

beforeAll(async () => {
  await ensureKubernetesTools();
  for (const { name, render } of CASES)
    rendered.set(name, parseManifests(await helmTemplate(render), `helm template (${name})`));
}, FETCH_TIMEOUT_MS);

describe('the chart’s shutdown timings', () => {
  it.each(CASES)('equal shutdownTimings() of the inputs, with $name', ({ name, values }) => {
    const inputs = inputsOf(values());
    const expected = shutdownTimings(inputs);
    expect(renderedTimings(rendered.get(name)!)).toEqual({
      ...expected,
      preStopSeconds: inputs.preStopSeconds,
    });
  });

  it.each(CASES)(
    'keep the grace period above preStop + SHUTDOWN_TIMEOUT_MS, with $name',
    ({ name, values }) => {
      expectInvariants(renderedTimings(rendered.get(name)!), inputsOf(values()));
    },
  );

  it('render no preStop hook when preStopSeconds is 0', () => {
    expect(
      onlyContainer(podSpecOf(findObject(rendered.get('no preStop sleep')!, 'Deployment')))
        .lifecycle,
    ).toBeUndefined();
  });

  it('are 32 s of grace, a 20000 ms drain and a 25000 ms deadline by default', () => {
    expect(renderedTimings(rendered.get('the defaults')!)).toEqual({
      terminationGracePeriodSeconds: 32,
      preStopSeconds: 5,
      drainTimeoutMs: 20000,
      shutdownTimeoutMs: 25000,
    });
  });
});

describe('the k8s/base shutdown timings', () => {
  it('equal the chart’s defaults and keep the same invariants', async () => {
    const base = renderedTimings(
      parseManifests(await kustomize('k8s/base'), 'kubectl kustomize k8s/base'),
    );
    expect(base).toEqual(renderedTimings(rendered.get('the defaults')!));
    expectInvariants(base, inputsOf(chartDefaults()));
  });
});
