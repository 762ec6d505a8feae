import { describeDurability } from './describe-durability.js';
import { nativeOrderAgent } from './order-agent.fixtures.js';

describeDurability('native order agent', () => nativeOrderAgent(), {
  input: 'Order 42: charge and send the receipt',
});
