import { sharedUntilFailure } from './shared-until-failure';

describe('sharedUntilFailure', () => {
  it('makes once for concurrent and later calls', async () => {
    let made = 0;
    const ensure = sharedUntilFailure(async () => ++made);

    expect(await Promise.all([ensure(), ensure()])).toEqual([1, 1]);
    expect(await ensure()).toBe(1);
    expect(made).toBe(1);
  });

  it('tries again after a failure', async () => {
    let made = 0;
    const ensure = sharedUntilFailure(async () => {
      made++;
      if (made === 1) throw new Error('registry unreachable');
      return made;
    });

    await expect(ensure()).rejects.toThrow('registry unreachable');
    expect(await ensure()).toBe(2);
    expect(await ensure()).toBe(2);
  });
});
