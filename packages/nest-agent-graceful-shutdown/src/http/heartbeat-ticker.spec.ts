import { waitFor } from 'dev-services';
import { HeartbeatTicker } from './heartbeat-ticker.js';

/** A target that counts its beats and says it wrote when told. */
function target() {
  const state = { lastWriteAt: performance.now(), beats: 0, beat: () => undefined as void };
  state.beat = () => {
    state.beats++;
    state.lastWriteAt = performance.now();
  };
  return state;
}

describe('HeartbeatTicker', () => {
  it('beats every silent stream of its period from one shared ticker', async () => {
    const ticker = HeartbeatTicker.every(40);
    const streams = [target(), target(), target()];
    const releases = streams.map((stream) => ticker.add(stream));

    await waitFor(
      () => streams.every((stream) => stream.beats >= 2),
      'two beats on every stream',
      2_000,
    );

    releases.forEach((release) => release());
    expect(ticker.size).toBe(0);
  });

  it('does not beat a stream that keeps writing', async () => {
    const ticker = HeartbeatTicker.every(60);
    // Its last write is always just now, whenever the ticker looks: no timer of the spec's own,
    // which a loaded machine could delay past the period.
    const busy = {
      beats: 0,
      get lastWriteAt() {
        return performance.now();
      },
      beat() {
        this.beats++;
      },
    };
    const quiet = target();
    const releases = [ticker.add(busy), ticker.add(quiet)];

    await waitFor(() => quiet.beats >= 3, 'three beats on the quiet stream', 3_000);

    releases.forEach((release) => release());
    expect(busy.beats).toBe(0);
  });

  it('is the same ticker for the same period', () => {
    expect(HeartbeatTicker.every(15_000)).toBe(HeartbeatTicker.every(15_000));
    expect(HeartbeatTicker.every(15_000)).not.toBe(HeartbeatTicker.every(1_000));
  });
});
