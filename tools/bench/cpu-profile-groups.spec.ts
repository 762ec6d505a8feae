import { profileGroups, type CpuProfile } from './cpu-profile-groups';

/** root → start → (work → save), root → (garbage collector): four samples, the first before the start. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 5, 6] },
    {
      id: 2,
      callFrame: {
        functionName: 'interruptRemaining',
        url: 'dist/shutdown/shutdown-coordinator.service.js',
      },
      children: [3],
    },
    { id: 3, callFrame: { functionName: 'work', url: 'dist/runs/agent-run.js' }, children: [4] },
    {
      id: 4,
      callFrame: { functionName: 'writeSqlite', url: 'dist/typeorm-store/finished-run-rows.js' },
    },
    { id: 5, callFrame: { functionName: '(garbage collector)', url: '' } },
    { id: 6, callFrame: { functionName: 'admit', url: 'dist/app/runs/runs.controller.js' } },
  ],
  samples: [6, 2, 4, 5, 3],
  timeDeltas: [500, 500, 500, 500, 500],
};

const groups = [
  { name: 'gc', patterns: ['(garbage collector)'] },
  { name: 'save', patterns: ['finished-run-rows'] },
  { name: 'run end', patterns: ['agent-run.js'] },
];

describe('profileGroups', () => {
  it('counts each sample from the start in the first group on its stack, the rest as other', () => {
    const shares = profileGroups(profile, groups, 'interruptRemaining');

    expect(shares.map(({ name, samples }) => [name, samples])).toEqual([
      ['gc', 1],
      ['save', 1],
      ['run end', 1],
      ['other', 1],
    ]);
    expect(shares.reduce((sum, { share }) => sum + share, 0)).toBeCloseTo(1);
  });

  it('counts every sample when there is no start', () => {
    const shares = profileGroups(profile, groups);

    expect(shares.find(({ name }) => name === 'other')?.samples).toBe(2);
    expect(shares.reduce((sum, { samples }) => sum + samples, 0)).toBe(5);
  });
});
