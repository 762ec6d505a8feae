import { describeDurability } from './describe-durability.js';
import { nativeOrderAgent, WITH_CURRENCY } from './order-agent.fixtures.js';

describeDurability('native order agent', () => nativeOrderAgent(), {
  input: 'Order 42: charge and send the receipt',
  next: () => nativeOrderAgent(WITH_CURRENCY),
});
