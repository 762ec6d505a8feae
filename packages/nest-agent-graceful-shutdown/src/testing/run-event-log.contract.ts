/// <reference types="jest" />
import type { RunEventLog } from '../contracts/run-event-log.interface.js';
import { freshRun, idsOf, loggedEvents, RecordingListener, until } from './run-event-log-probes.js';

/** A log under test and how to release it. */
export interface RunEventLogFixture {
  log: RunEventLog;
  dispose(): Promise<void>;
  /**
   * Moves the log's clock forward by `ms` milliseconds. Without it, the retention tests use
   * a short real retention and wait for eviction in real time.
   */
  advance?(ms: number): void | Promise<void>;
}

/** The retention the tests set when they cannot move the log's clock, in milliseconds. */
const REAL_RETENTION_MS = 300;
/** The retention the tests set when they move the log's clock by hand, in milliseconds. */
const CLOCK_RETENTION_MS = 60_000;

/**
 * The behaviour every `RunEventLog` must have. Each test gets a log from `factory` and writes
 * only runs of its own, so the same suite runs against the in-memory log, Redis or any other
 * store, fresh or shared.
 */
export function describeRunEventLogContract(
  name: string,
  factory: () => Promise<RunEventLogFixture>,
): void {
  describe(`${name} (RunEventLog contract)`, () => {
    let fixture: RunEventLogFixture;
    let log: RunEventLog;
    const follows: (() => void)[] = [];

    /** Lets `ms` pass for the log: by its clock when the fixture can move it, else by waiting for a condition. */
    const retention = () => (fixture.advance ? CLOCK_RETENTION_MS : REAL_RETENTION_MS);
    async function outlive(what: () => Promise<boolean>, description: string): Promise<void> {
      await fixture.advance?.(retention() + 1);
      await until(what, description);
    }

    beforeEach(async () => {
      fixture = await factory();
      log = fixture.log;
    });

    afterEach(async () => {
      follows.splice(0).forEach((unsubscribe) => unsubscribe());
      await fixture.dispose();
    });

    it('reads appended events in id order, at most `limit` of them', async () => {
      const run = freshRun();
      await log.append(run, loggedEvents(1, 3));
      await log.append(run, loggedEvents(4, 5));

      expect(await log.read(run, 0, 100)).toEqual(loggedEvents(1, 5));
      expect(idsOf(await log.read(run, 0, 2))).toEqual([1, 2]);
    });

    it('reads only the events after the given id, and none after the last', async () => {
      const run = freshRun();
      await log.append(run, loggedEvents(1, 5));

      expect(idsOf(await log.read(run, 3, 100))).toEqual([4, 5]);
      expect(await log.read(run, 5, 100)).toEqual([]);
    });

    it('reads null for a run that was never written', async () => {
      await expect(log.read(freshRun(), 0, 100)).resolves.toBeNull();
    });

    it('gives the last event of a run, and null for a run without one', async () => {
      const run = freshRun();
      await log.append(run, loggedEvents(1, 3));

      expect(await log.last(run)).toEqual(loggedEvents(3, 3)[0]);
      await expect(log.last(freshRun())).resolves.toBeNull();
    });

    it('keeps runs apart whose ids differ only in where a colon falls', async () => {
      const suffix = freshRun().runId;
      const [left, right] = [
        { threadId: `a:b-${suffix}`, runId: 'c' },
        { threadId: 'a', runId: `b-${suffix}:c` },
      ];
      await log.append(left, loggedEvents(1, 2));

      expect(await log.read(right, 0, 100)).toBeNull();
    });

    it('evicts a retained log once its retention has passed, and not before', async () => {
      const run = freshRun();
      await log.append(run, loggedEvents(1, 3));

      await log.retain(run, retention());

      expect(idsOf(await log.read(run, 0, 100))).toEqual([1, 2, 3]);
      await outlive(
        async () => (await log.read(run, 0, 100)) === null,
        'the retained log to be evicted',
      );
      await expect(log.last(run)).resolves.toBeNull();
    });

    it('keeps a retained log that is appended to again, without an expiry', async () => {
      const [kept, control] = [freshRun(), freshRun()];
      await log.append(kept, loggedEvents(1, 2));
      await log.append(control, loggedEvents(1, 2));
      await log.retain(kept, retention());

      await log.append(kept, loggedEvents(3, 3));
      await log.retain(control, retention());

      await outlive(
        async () => (await log.read(control, 0, 100)) === null,
        'the control log, retained later, to be evicted',
      );
      expect(idsOf(await log.read(kept, 0, 100))).toEqual([1, 2, 3]);
    });

    it('stores nothing twice when a batch is appended again, wholly or partly stored', async () => {
      const run = freshRun();
      await log.append(run, loggedEvents(1, 3));

      await log.append(run, loggedEvents(1, 3));
      await log.append(run, loggedEvents(2, 5));

      expect(idsOf(await log.read(run, 0, 100))).toEqual([1, 2, 3, 4, 5]);
      expect(await log.read(run, 0, 100)).toEqual(loggedEvents(1, 5));
    });

    it('refuses, storing nothing, the appends of a writer once another one claimed the log', async () => {
      const run = freshRun();
      await log.claim(run, 'attempt-1');
      await log.append(run, loggedEvents(1, 2), 'attempt-1');

      await expect(log.claim(run, 'attempt-2')).resolves.toEqual(loggedEvents(2, 2)[0]);
      await expect(log.append(run, loggedEvents(3, 4), 'attempt-1')).rejects.toMatchObject({
        name: 'EventLogFencedError',
      });
      await log.append(run, loggedEvents(3, 3), 'attempt-2');

      expect(idsOf(await log.read(run, 0, 100))).toEqual([1, 2, 3]);
    });

    it('refuses, storing nothing, a contiguous append the log ends before, naming its last id', async () => {
      const run = freshRun();
      await log.append(run, loggedEvents(1, 2));

      await expect(
        log.append(run, loggedEvents(4, 5), undefined, { contiguous: true }),
      ).rejects.toMatchObject({ name: 'EventLogGapError', lastId: 2 });
      await expect(
        log.append(freshRun(), loggedEvents(3, 3), undefined, { contiguous: true }),
      ).rejects.toMatchObject({ lastId: 0 });
      await log.append(run, loggedEvents(1, 3), undefined, { contiguous: true });
      await log.append(run, loggedEvents(5, 5));

      expect(idsOf(await log.read(run, 0, 100))).toEqual([1, 2, 3, 5]);
    });

    it('answers a claim of a run never written with null', async () => {
      await expect(log.claim(freshRun(), 'attempt-1')).resolves.toBeNull();
    });

    it('delivers to a follower the events after its cursor, then each new one, once and in order', async () => {
      const run = freshRun();
      await log.append(run, loggedEvents(1, 3));
      const listener = new RecordingListener();

      follows.push(log.follow(run, 1, listener));
      await until(() => listener.received.length >= 2, 'the events already logged');
      await log.append(run, loggedEvents(4, 4));
      await log.append(run, loggedEvents(5, 7));

      await until(() => listener.received.length >= 6, 'the new events');
      expect(listener.received).toEqual(loggedEvents(2, 7));
    });

    it('delivers to a follower of a run not written yet its events once they come', async () => {
      const run = freshRun();
      const listener = new RecordingListener();

      follows.push(log.follow(run, 0, listener));
      await log.append(run, loggedEvents(1, 2));

      await until(() => listener.received.length >= 2, 'the first events');
      expect(listener.ids).toEqual([1, 2]);
    });

    it('serves two followers of one run from their own cursors', async () => {
      const run = freshRun();
      await log.append(run, loggedEvents(1, 4));
      const [early, late] = [new RecordingListener(), new RecordingListener()];

      follows.push(log.follow(run, 0, early), log.follow(run, 3, late));
      await log.append(run, loggedEvents(5, 5));

      await until(
        () => early.received.length >= 5 && late.received.length >= 2,
        'both followers to catch up',
      );
      expect([early.ids, late.ids]).toEqual([
        [1, 2, 3, 4, 5],
        [4, 5],
      ]);
    });

    it('delivers nothing more to a follower once it unsubscribed, and goes on for the others', async () => {
      const run = freshRun();
      const [leaving, staying] = [new RecordingListener(), new RecordingListener()];
      const unsubscribe = log.follow(run, 0, leaving);
      follows.push(unsubscribe, log.follow(run, 0, staying));
      await log.append(run, loggedEvents(1, 1));
      await until(
        () => leaving.received.length >= 1 && staying.received.length >= 1,
        'the first event',
      );

      unsubscribe();
      await log.append(run, loggedEvents(2, 3));

      await until(
        () => staying.received.length >= 3,
        'the staying follower to get the later events',
      );
      expect([leaving.ids, staying.ids]).toEqual([[1], [1, 2, 3]]);
    });
  });
}
