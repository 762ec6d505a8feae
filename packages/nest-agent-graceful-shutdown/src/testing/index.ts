// `nest-agent-graceful-shutdown/testing`: behaviour suites to run against your own parts (Jest,
// or Vitest with `globals: true`): every session store, every run event log, every signal bus, and every agent
// loop driving a run handle; and `verifyDurability`, which interrupts your own agent at every point a
// shutdown can stop it and checks the resume.
export {
  describeSessionStoreContract,
  type SessionStoreFeatures,
  type SessionStoreFixture,
  type SessionStoreTestSettings,
} from './session-store.contract.js';
export { describeRunEventLogContract, type RunEventLogFixture } from './run-event-log.contract.js';
export { describeSignalBusContract, type SignalBusFixture } from './signal-bus.contract.js';
export { describeRunHandleContract } from './run-handle.contract.js';
export {
  waitForHold,
  type ContractTool,
  type RunHandleHarness,
  type ScriptedTurn,
} from './run-handle-harness.js';
export { MemoryCheckpointer } from './memory-checkpointer.js';
export { startMemoryRun, type MemoryRun, type MemoryRunOptions } from './memory-run.js';
export {
  verifyDurability,
  type AgentFactory,
  type DurabilityOptions,
} from './durability/verify-durability.js';
export {
  describeDurability,
  type DescribeDurabilityOptions,
} from './durability/describe-durability.js';
export { scriptFromConversation } from './durability/conversation-script.js';
export type {
  DurabilityReport,
  NotRunReport,
  PointReport,
  VersionChangeReport,
} from './durability/durability-report.js';
