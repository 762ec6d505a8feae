import { describeRunEventLogContract } from '../testing/run-event-log.contract.js';
import { InMemoryRunEventLog } from './in-memory-run-event-log.js';

describeRunEventLogContract('InMemoryRunEventLog', async () => {
  let time = Date.parse('2025-01-02T03:00:00.000Z');
  const log = new InMemoryRunEventLog(() => time);
  return {
    log,
    dispose: async () => undefined,
    advance: (ms: number) => void (time += ms),
  };
});
