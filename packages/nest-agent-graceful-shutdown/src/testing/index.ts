// `nest-agent-graceful-shutdown/testing`: behaviour suites to run against your own parts (Jest,
// or Vitest with `globals: true`): every session store, every run event log, every signal bus, and every agent
// loop driving a run handle.
export { describeSessionStoreContract, type SessionStoreFixture, type SessionStoreTestSettings } from './session-store.contract.js';
export { describeRunEventLogContract, type RunEventLogFixture } from './run-event-log.contract.js';
export { describeSignalBusContract, type SignalBusFixture } from './signal-bus.contract.js';
export { describeRunHandleContract } from './run-handle.contract.js';
export { waitForHold, type ContractTool, type RunHandleHarness, type ScriptedTurn } from './run-handle-harness.js';
export { MemoryCheckpointer } from './memory-checkpointer.js';
export { startMemoryRun, type MemoryRun, type MemoryRunOptions } from './memory-run.js';
