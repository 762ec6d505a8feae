import { eresolveConflict } from './eresolve-conflict';

describe('eresolveConflict', () => {
  it('names the package npm could not resolve, the range that refused it and who asked for that range', () => {
    const message = [
      'npm error code ERESOLVE',
      'npm error Could not resolve dependency:',
      'npm error peerOptional openai@"^6.0.0" from nest-agent-graceful-shutdown@0.5.0',
    ].join('\n');
    expect(eresolveConflict(message)).toEqual({
      name: 'openai',
      wanted: '^6.0.0',
      from: 'nest-agent-graceful-shutdown@0.5.0',
    });
  });

  it('reads scoped names', () => {
    const message =
      'npm error Could not resolve dependency:\nnpm error peer @openai/agents@"^0.14.0" from nest-agent-graceful-shutdown@0.5.0';
    expect(eresolveConflict(message)?.name).toBe('@openai/agents');
  });

  it('finds nothing in another failure', () => {
    expect(eresolveConflict('npm error code E404')).toBeUndefined();
  });
});
