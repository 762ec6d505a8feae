import { waitUntil } from '../bench/wait-until';
import { RoundLoop } from './round-loop';

describe('RoundLoop', () => {
  it('repeats its round until stopped, and stop waits for the round in flight', async () => {
    let rounds = 0;
    let inRound = false;
    const loop = new RoundLoop(async () => {
      inRound = true;
      await new Promise((resolve) => setTimeout(resolve, 5));
      rounds++;
      inRound = false;
    }, 10);
    loop.start();
    await waitUntil(async () => (rounds >= 3 ? true : undefined), 'three rounds', 5_000, 5);
    await loop.stop();
    expect(inRound).toBe(false);
    expect(loop.active).toBe(false);
  });

  it('starts the next round at once when nudged, instead of after its period', async () => {
    let rounds = 0;
    const loop = new RoundLoop(async () => {
      rounds++;
    }, 60_000);
    loop.start();
    await waitUntil(async () => (rounds === 1 ? true : undefined), 'the first round', 5_000, 5);
    loop.nudge();
    await waitUntil(async () => (rounds === 2 ? true : undefined), 'the nudged round', 5_000, 5);
    await loop.stop();
    expect(rounds).toBe(2);
  });
});
