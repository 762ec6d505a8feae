import { parseChaosCommand } from './chaos-options';
import { ChaosUsageError } from './chaos-usage.error';

describe('parseChaosCommand', () => {
  it('reads the seed, the window, the clients and --dry-run', () => {
    expect(
      parseChaosCommand(['--seed', '42', '--seconds', '60', '--clients', '5', '--dry-run']),
    ).toEqual({ seed: 42, seconds: 60, clients: 5, dryRun: true });
  });

  it('picks a seed when none is given', () => {
    expect(Number.isInteger(parseChaosCommand([]).seed)).toBe(true);
  });

  it('refuses a value out of range, naming the option', () => {
    expect(() => parseChaosCommand(['--seconds', '5'])).toThrow(
      new ChaosUsageError('--seconds must be an integer from 20 to 3600, got "5"'),
    );
  });

  it('refuses an unknown argument', () => {
    expect(() => parseChaosCommand(['--seeds', '1'])).toThrow(/unknown argument "--seeds"/);
  });
});
