import { scaleDownBehavior } from './scale-down-behavior';

const DERIVED = { stabilizationWindowSeconds: null, pods: 1, periodSeconds: null };
const DEFAULT_SHUTDOWN = {
  preStopSeconds: 5,
  drainSeconds: 20,
  saveMarginSeconds: 5,
  exitMarginSeconds: 2,
};

describe('scaleDownBehavior', () => {
  it('keeps Kubernetes’ 300 s window when two grace periods are shorter, and removes one pod per grace period', () => {
    expect(scaleDownBehavior(DEFAULT_SHUTDOWN, DERIVED)).toEqual({
      stabilizationWindowSeconds: 300,
      policies: [{ type: 'Pods', value: 1, periodSeconds: 32 }],
    });
  });

  it('waits two grace periods after a long drain, so the window always outlasts one drain', () => {
    const behavior = scaleDownBehavior(
      { preStopSeconds: 5, drainSeconds: 300, saveMarginSeconds: 20, exitMarginSeconds: 5 },
      DERIVED,
    );
    expect(behavior.stabilizationWindowSeconds).toBe(660);
    expect(behavior.policies[0].periodSeconds).toBe(330);
  });

  it('stays within the API’s limits for an hour-long drain', () => {
    const behavior = scaleDownBehavior(
      { preStopSeconds: 5, drainSeconds: 3600, saveMarginSeconds: 30, exitMarginSeconds: 5 },
      DERIVED,
    );
    expect(behavior.stabilizationWindowSeconds).toBe(3600);
    expect(behavior.policies[0].periodSeconds).toBe(1800);
  });

  it('takes the window, the pods and the period as given when they are set', () => {
    expect(
      scaleDownBehavior(DEFAULT_SHUTDOWN, {
        stabilizationWindowSeconds: 120,
        pods: 2,
        periodSeconds: 60,
      }),
    ).toEqual({
      stabilizationWindowSeconds: 120,
      policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }],
    });
  });
});
