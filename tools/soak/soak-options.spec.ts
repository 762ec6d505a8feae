import { parseSoakCommand } from './soak-options';
import { SoakUsageError } from './soak-usage.error';

describe('parseSoakCommand', () => {
  it('defaults to 15 minutes with a restart every 270 s, after a 2-minute warm-up', () => {
    expect(parseSoakCommand(['--seed', '7'])).toEqual({
      minutes: 15,
      restartEverySeconds: 270,
      warmupSeconds: 120,
      clients: 8,
      sampleEverySeconds: 2,
      seed: 7,
      publish: false,
    });
  });

  it('reads every option', () => {
    const command = parseSoakCommand([
      '--minutes',
      '1',
      '--restart-every-s',
      '20',
      '--warmup-s',
      '10',
      '--clients',
      '3',
      '--logs',
      '/tmp/x',
      '--publish',
    ]);
    expect(command).toMatchObject({
      minutes: 1,
      restartEverySeconds: 20,
      warmupSeconds: 10,
      clients: 3,
      logDir: '/tmp/x',
      publish: true,
    });
  });

  it('refuses an unknown option and a restart interval too short to boot in', () => {
    expect(() => parseSoakCommand(['--hours', '1'])).toThrow(SoakUsageError);
    expect(() => parseSoakCommand(['--restart-every-s', '5'])).toThrow(/at least 10/);
  });
});
