import { describeSignalBusContract } from '../testing/signal-bus.contract.js';
import { InProcessSignalBus } from './in-process-signal-bus.js';

// One process is one instance: every "instance" of the suite is the same bus.
describeSignalBusContract('InProcessSignalBus', async () => {
  const bus = new InProcessSignalBus();
  return {
    instances: async (count) => Array.from({ length: count }, () => bus),
    dispose: async () => undefined,
  };
});
